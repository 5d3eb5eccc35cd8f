/**
 * A Core with lazy sessions (the CLI's): it polls only the controllers a call addresses, never every
 * saved one, and a group run opens just its members' controllers.
 */
import { afterEach, expect, it } from 'vitest';
import type { Group } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { createCore } from '../../../src-main/core/index';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

it('starts a session only for the controllers a call addresses', async () => {
  const emus = await Promise.all([0, 1, 2].map(() => emulator({ initialStates: Array(8).fill(false) })));
  const eager = newCore();
  const ids: string[] = [];
  for (const emu of emus) ids.push((await addController(eager, emu)).id);
  const group = await eager.ok<Group>('groups/save', {
    name: 'Third',
    members: [{ controllerId: ids[2]!, outlet: 6 }],
  });
  await eager.core.dispose();
  for (const emu of emus) emu.device.stats.reset();

  const lazy = createCore({
    shell: 'test',
    version: '0',
    store: eager.store,
    secrets: eager.secrets,
    lazySessions: true,
    log: () => undefined,
  });
  try {
    await lazy.ready;
    const call = async (name: string, input: unknown) => {
      const result = await dispatch(lazy.handlers, name, input);
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
      return result.value;
    };
    await call('outlets/set', { controllerId: ids[1], outlets: [3], on: true });
    expect(emus[1]!.device.outlet(2).state).toBe(true);
    await call('groups/run', { id: group.id, action: 'on' });
    expect(emus[2]!.device.outlet(5).state).toBe(true);
    // The first controller was never addressed: not one request reached it.
    expect(emus[0]!.device.stats.requests).toBe(0);
    expect(emus[1]!.device.stats.requests).toBeGreaterThan(0);
    const unknown = await dispatch(lazy.handlers, 'outlets/set', {
      controllerId: 'c-none',
      outlets: [1],
      on: true,
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  } finally {
    await lazy.dispose();
  }
  expect(emus[0]!.device.stats.requests).toBe(0);
});
