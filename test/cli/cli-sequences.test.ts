/**
 * `plugboard sequence run | abort` and `plugboard sequences` through a running service's Core (the real
 * Core socket): the timeline printed as it goes, logged as the sequence for this OS user, a critical
 * outlet refused without --yes (exit 7), and a reserved step refused whole (exit 5). @real-unit: a step
 * waits for the profile's unit to confirm it.
 */
import { userInfo } from 'node:os';
import { afterEach, expect, it, vi } from 'vitest';
import type { ActivityEntry, Group } from '../../src-preload/contract';
import { emulator } from '../core/harness';
import { runningCore } from './running-core';
import { cli } from './run-cli';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

it('runs a sequence and prints its timeline; refuses critical without --yes and reserved steps', async () => {
  const emu = await emulator({ initialStates: Array<boolean>(8).fill(false) });
  cleanups.push(() => emu.close());
  const { core, id, env } = await runningCore({ url: emu.url, name: 'Rack A', password: '1234' }, cleanups);
  const group: Group = await core.handlers['sequences/save']({
    name: 'Rack 7',
    steps: [
      { controllerId: id, outlets: [1], wait: { kind: 'confirmed', timeoutSeconds: 30 } },
      { controllerId: id, outlets: [2, 3], wait: { kind: 'delay', seconds: 0 } },
    ],
  });
  const entries: ActivityEntry[] = [];
  core.subscribe((name, payload) => {
    if (name === 'activity/added') entries.push(payload as ActivityEntry);
  });

  const on = await cli(['sequence', 'run', 'rack 7', 'on'], { env });
  expect(on.code, on.stderr).toBe(0);
  expect(on.stdout.trim().split('\n')).toEqual([
    'Step 1: switching Rack A outlet 1 on.',
    'Waiting up to 30 s for Rack A outlet 1 to be confirmed on.',
    'Step 1: Rack A outlet 1 confirmed on.',
    'Step 2: switching Rack A outlets 2, 3 on.',
    'Step 2: Rack A outlets 2, 3 switched on.',
    "Sequence 'Rack 7' switched on: all 2 steps done.",
  ]);
  expect(
    emu.device
      .outlets()
      .slice(0, 3)
      .map((o) => o.state),
  ).toEqual([true, true, true]);
  expect(entries.filter((e) => e.source === 'sequence').map((e) => [e.outlet, e.who])).toEqual([
    [1, userInfo().username],
    [2, userInfo().username],
    [3, userInfo().username],
  ]);

  emu.device.setCritical(1, true);
  await vi.waitFor(
    () =>
      expect(core.handlers['app/snapshot']({}).then((s) => s.states[0]!.outlets[1]!.critical)).resolves.toBe(
        true,
      ),
    { timeout: 15_000 },
  );
  const refused = await cli(['sequence', 'run', 'Rack 7', 'off'], { env });
  expect(refused.code).toBe(7);
  expect(refused.stderr).toBe(
    'plugboard: Outlet 2 on Rack A is marked critical, so nothing was switched: confirm that it may lose power, then ask again. Run it again with --yes to confirm. [CRITICAL_UNCONFIRMED]\n',
  );
  expect(emu.device.outlet(1).state).toBe(true);

  await core.handlersAs({ door: 'window', who: 'alice', role: 'operator' })['reservations/take']({
    target: { kind: 'group', groupId: group.id },
    reason: 'soak test',
    durationMs: 3_600_000,
  });
  const reserved = await cli(['sequence', 'run', 'Rack 7', 'off', '--yes'], { env });
  expect(reserved.code).toBe(5);
  expect(reserved.stderr).toMatch(/^plugboard: Outlet 2 on Rack A is reserved by alice /);
  expect(
    emu.device
      .outlets()
      .slice(0, 3)
      .map((o) => o.state),
  ).toEqual([true, true, true]);
  const listed = await cli(['sequences'], { env });
  expect(listed.stdout.trim()).toBe('No sequence runs.');
});
