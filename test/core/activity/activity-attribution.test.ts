/**
 * Every activity entry says who asked and through which door (issue 15's attributed log).
 *
 * @real-unit: rerun against the emulator's real-unit profile for switches through every door and changes made
 * at the unit, read back by polling the unit's outlets.
 */
import { afterEach, expect, it } from 'vitest';
import type { Group } from '../../../src-preload/contract';
import { addController, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

it('records the person and door of each switch, a group run as the group on their behalf, and outside changes', async () => {
  const emu = await emulator({ initialStates: Array(8).fill(false) });
  const h = newCore({ user: 'alice' });
  await h.ok('settings/set', { pollIntervalMs: 500 });
  const { id } = await addController(h, emu);

  await h.ok('outlets/set', { controllerId: id, outlets: [1], on: true });
  await h.core
    .handlersAs({ door: 'cli', who: 'bob', role: 'operator' })
    ['outlets/set']({ controllerId: id, outlets: [2], on: true });
  await h.core.handlersAs('tray')['outlets/set']({ controllerId: id, outlets: [3], on: true });
  const group = await h.ok<Group>('groups/save', {
    name: 'Pair',
    members: [{ controllerId: id, outlet: 4 }],
  });
  await h.core
    .handlersAs({ door: 'pdudaemon-http', who: 'lava', role: 'operator' })
    ['groups/run']({ id: group.id, action: 'on' });
  emu.device.setOutlet(4, { state: true });
  await until(h, id, (s) => s.outlets[4]!.state);

  const byOutlet = (n: number) => h.activity().find((e) => e.outlet === n && e.result !== 'error');
  expect(byOutlet(1)).toMatchObject({ source: 'window', who: 'alice', result: 'ok' });
  expect(byOutlet(2)).toMatchObject({ source: 'cli', who: 'bob', result: 'ok' });
  expect(byOutlet(3)).toMatchObject({ source: 'tray', who: 'alice', result: 'ok' });
  expect(byOutlet(4)).toMatchObject({ source: 'group', who: 'lava', result: 'ok' });
  await expect
    .poll(() => byOutlet(5), { timeout: 15_000 })
    .toMatchObject({
      source: 'outside',
      who: 'outside Plugboard',
      result: 'observed',
    });
  // The same actor gets the same handlers (one set per actor, not one per call).
  expect(h.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' })).toBe(
    h.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' }),
  );
});
