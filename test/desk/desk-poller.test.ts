/**
 * The unit sees one poller whatever the number of desks: the lab service polls it, and desks attached
 * to the lab only talk to the service. The service runs on a fake clock, so it polls only when the test
 * moves time: while four desks attach, sign in and read the lab, the unit gets no request at all, and
 * when time moves the service's own poll reaches it.
 */
import { afterEach, expect, it } from 'vitest';
import type { LabSummary } from '../../src-preload/model';
import { FakeClock } from '../core/fake-clock';
import { cleanUp } from '../core/harness';
import { PASSWORD, startDesk, startLab, type Cleanup } from './lab-fixture';

const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await cleanUp();
});

it('desks attached to a lab add no request to its unit', async () => {
  const clock = new FakeClock(Date.now());
  const names = ['ada', 'bob', 'cy', 'dee'];
  const lab = await startLab(
    cleanups,
    names.map((name) => ({ name, role: 'operator' as const })),
    { clock },
  );
  const attach = async (name: string) => {
    const desk = startDesk(cleanups);
    const added = await desk.ok<LabSummary>('labs/add', {
      addresses: [lab.origin],
      fingerprints: [lab.fingerprint],
    });
    await desk.ok('labs/signIn', { lab: added.id, name, password: PASSWORD });
    await desk.lab(added.id, (s) => s.status === 'online');
    for (const call of ['app/snapshot', 'controllers/list', 'reservations/list', 'groups/list'])
      await desk.ok('labs/call', { lab: added.id, name: call });
    return desk;
  };

  await lab.emu.device.whenSettled();
  lab.emu.device.stats.reset();
  for (const name of names) await attach(name);
  expect(lab.emu.device.stats.requests).toBe(0);

  // The service's poller is what reaches the unit, when its time moves.
  await clock.advance(3_000);
  await new Promise<void>((resolve) => {
    const look = (): void => {
      if (lab.emu.device.stats.requests > 0) resolve();
      else setImmediate(look);
    };
    look();
  });
  expect(lab.emu.device.stats.log.every((entry) => entry.path.includes('/restapi/'))).toBe(true);
});
