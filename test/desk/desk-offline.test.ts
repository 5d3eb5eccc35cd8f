/**
 * A desk whose lab service stops: the lab is offline, `app/snapshot` answers what was last known and
 * every other call is refused UNREACHABLE naming the lab (nothing is sent anywhere); it tries again by
 * itself 1 s later, doubling to 30 s (a fake clock), and is online again once the service is back.
 * With a standby among the lab's addresses it follows the leader its status names.
 */
import { afterEach, expect, it } from 'vitest';
import type { AppSnapshot, ControllerState, LabSummary } from '../../src-preload/model';
import { FakeClock } from '../core/fake-clock';
import { cleanUp } from '../core/harness';
import { PASSWORD, startDesk, startLab, type Cleanup } from './lab-fixture';

const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await cleanUp();
});

it('offline: last-known snapshot, switches refused naming the lab; reconnects by itself with backoff 1 s doubling to 30 s', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const clock = new FakeClock(Date.now());
  const desk = startDesk(cleanups, { clock });
  const added = await desk.ok<LabSummary>('labs/add', {
    addresses: [lab.origin],
    fingerprints: [lab.fingerprint],
  });
  await desk.ok('labs/signIn', { lab: added.id, name: 'ada', password: PASSWORD });
  await desk.lab(added.id, (s) => s.status === 'online');
  const on = desk.next(
    'labs/event',
    (e) =>
      e.name === 'state/changed' &&
      (e.payload as ControllerState).outlets?.find((o) => o.number === 5)?.physicalState === true,
  );
  await desk.ok('labs/call', {
    lab: added.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [5], on: true },
  });
  await on;

  let mark = desk.events.length;
  await lab.stop();
  const offline = await desk.lab(added.id, (s) => s.status === 'offline', mark);
  expect(offline.problem?.message).toContain(`The lab ${added.name} cannot be reached`);
  const known = await desk.ok<AppSnapshot>('labs/call', { lab: added.id, name: 'app/snapshot' });
  const outlet = known.states.find((s) => s.id === lab.controllerId)!.outlets.find((o) => o.number === 5)!;
  expect(outlet.physicalState).toBe(true);
  const refused = await desk.call('labs/call', {
    lab: added.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [5], on: false },
  });
  expect(!refused.ok && refused.error.code).toBe('UNREACHABLE');
  expect(!refused.ok && refused.error.message).toBe(
    `The lab ${added.name} cannot be reached now, so nothing was sent to it.`,
  );
  expect(lab.emu.device.outlet(4).physicalState).toBe(true);

  // Each failed attempt plans the next one twice as far off, up to 30 s.
  for (const wait of [1_000, 2_000, 4_000, 8_000, 16_000, 30_000]) {
    expect(clock.timersOf(wait)).toBe(1);
    mark = desk.events.length;
    await clock.advance(wait);
    await desk.lab(added.id, (s) => s.status === 'connecting', mark);
    await desk.lab(added.id, (s) => s.status === 'offline', mark);
  }
  expect(clock.timersOf(30_000)).toBe(1);

  await lab.start();
  mark = desk.events.length;
  await clock.advance(30_000);
  const back = await desk.lab(added.id, (s) => s.status === 'online', mark);
  expect(back.problem).toBeNull();
  await desk.ok('labs/call', {
    lab: added.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [5], on: false },
  });
  expect(lab.h.activity().findLast((e) => e.outlet === 5)?.who).toBe('ada');
});

it('follows the leader: a standby listed first names the leader, whose address the lab has', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const standby = await lab.standby('second');
  const clock = new FakeClock(Date.now());
  const desk = startDesk(cleanups, { clock });
  const added = await desk.ok<LabSummary>('labs/add', {
    addresses: [standby, lab.origin],
    fingerprints: [lab.fingerprint],
  });
  expect(added.name).toBe('second');
  await desk.ok('labs/signIn', { lab: added.id, name: 'ada', password: PASSWORD });
  const online = await desk.lab(added.id, (s) => s.status === 'online');
  expect(online.service).toBe(lab.origin);

  // The leader stops: the standby still answers (reads), and is what the desk reaches.
  const mark = desk.events.length;
  await lab.stop();
  await desk.lab(added.id, (s) => s.status === 'offline', mark);
  await clock.advance(1_000);
  const fallback = await desk.lab(added.id, (s) => s.status === 'online', mark);
  expect(fallback.service).toBe(standby);
});
