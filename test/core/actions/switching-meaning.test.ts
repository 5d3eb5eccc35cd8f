/**
 * Issue 16 item 1: one meaning for "on". A saved change to several outlets is one matrix PUT of `state`
 * and survives a controller restart; a temporary one is one `set_outlet_transient_states` call and
 * reverts.
 *
 * @real-unit: rerun against the emulator's real-unit profile for matrix writes of state and transient state
 * and their errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OutletActionResult } from '../../../src-preload/contract';
import type { RunningEmulator } from '../../../src-main/emulator';
import { addController, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

async function online(initialStates: boolean[]) {
  const emu = await emulator({ initialStates, sequenceDelay: 0 });
  const h = newCore();
  await h.ok('settings/set', { pollIntervalMs: 1000 });
  const { id } = await addController(h, emu);
  await until(h, id, (s) => s.status === 'online' && s.outlets.length === initialStates.length);
  return { emu, h, id };
}

/** The requests that changed something (polls and the outlet-count read are GETs). */
function writes(emu: RunningEmulator): string[] {
  return emu.device.stats.log.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
}

describe('switching the selection: saved or temporary', () => {
  it('saves a selection with one matrix PUT of state, which survives a restart; a temporary one reverts', async () => {
    const { emu, h, id } = await online(Array(8).fill(false));

    emu.device.stats.reset();
    const saved = await h.ok<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [2, 5, 7],
      on: true,
    });
    expect(saved).toEqual({ requested: [2, 5, 7], failed: [] });
    expect(writes(emu)).toEqual(['PUT /restapi/relay/outlets/=1,4,6/state/']);

    emu.device.stats.reset();
    const temporary = await h.ok<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [3, 4],
      on: true,
      transient: true,
    });
    expect(temporary).toEqual({ requested: [3, 4], failed: [] });
    expect(writes(emu)).toEqual(['POST /restapi/relay/set_outlet_transient_states/']);

    // Confirmed by the controller's own reading, not by the answer alone.
    await until(h, id, (s) =>
      [2, 3, 4, 5, 7].every((n) => s.outlets[n - 1]!.physicalState && s.outlets[n - 1]!.pending === null),
    );
    expect(emu.device.outlets().map((o) => [o.state, o.transientState])).toEqual([
      [false, false],
      [true, true],
      [false, true],
      [false, true],
      [true, true],
      [false, false],
      [true, true],
      [false, false],
    ]);
    const words = h
      .activity()
      .filter((e) => e.source === 'window' && e.outlet !== null)
      .map((e) => [e.outlet, e.action, e.result]);
    expect(words).toEqual([
      [2, 'on', 'ok'],
      [5, 'on', 'ok'],
      [7, 'on', 'ok'],
      [3, 'on (temporary)', 'ok'],
      [4, 'on (temporary)', 'ok'],
    ]);

    await emu.device.reboot();
    const after = await until(
      h,
      id,
      (s) => s.status === 'online' && !s.outlets[2]!.physicalState && !s.outlets[3]!.physicalState,
      20_000,
    );
    expect(after.outlets.map((o) => o.physicalState)).toEqual([
      false,
      true,
      false,
      false,
      true,
      false,
      true,
      false,
    ]);
  });

  it('flips a selection saved with one matrix PUT per target state, temporary with one call', async () => {
    const { emu, h, id } = await online([true, false, true, false, false, false, false, false]);
    const flip = [
      { outlet: 1, on: false },
      { outlet: 2, on: true },
      { outlet: 3, on: false },
      { outlet: 4, on: true },
    ];

    emu.device.stats.reset();
    await h.ok('outlets/switch', { controllerId: id, changes: flip, transient: false });
    expect(writes(emu)).toEqual([
      'PUT /restapi/relay/outlets/=1,3/state/',
      'PUT /restapi/relay/outlets/=0,2/state/',
    ]);
    expect(
      emu.device
        .outlets()
        .slice(0, 4)
        .map((o) => o.state),
    ).toEqual([false, true, false, true]);
    await until(h, id, (s) =>
      s.outlets.slice(0, 4).every((o) => o.pending === null && o.physicalState === o.state),
    );

    emu.device.stats.reset();
    await h.ok('outlets/switch', {
      controllerId: id,
      changes: [
        { outlet: 5, on: true },
        { outlet: 2, on: false },
      ],
      transient: true,
    });
    expect(writes(emu)).toEqual(['POST /restapi/relay/set_outlet_transient_states/']);
    await until(h, id, (s) => s.outlets[4]!.physicalState && !s.outlets[1]!.physicalState);

    await emu.device.reboot();
    const after = await until(
      h,
      id,
      (s) => s.status === 'online' && s.outlets[1]!.physicalState && !s.outlets[4]!.physicalState,
      20_000,
    );
    // The saved flip stayed; the temporary switch went back to the saved states.
    expect(after.outlets.slice(0, 5).map((o) => o.physicalState)).toEqual([false, true, false, true, false]);
  });

  it('a saved flip whose second request is refused fails only those outlets: the first ones did switch', async () => {
    const { emu, h, id } = await online([true, false, false, false, false, false, false, false]);
    emu.device.faults.add({ kind: 'error500', times: 1, method: 'PUT', path: 'relay/outlets/0/state/' });
    const result = await h.ok<OutletActionResult>('outlets/switch', {
      controllerId: id,
      changes: [
        { outlet: 1, on: false },
        { outlet: 2, on: true },
        { outlet: 3, on: true },
      ],
      transient: false,
    });
    expect(result.requested).toEqual([1, 2, 3]);
    expect(result.failed.map((f) => [f.outlet, f.error.code])).toEqual([[1, expect.any(String)]]);
    expect(
      emu.device
        .outlets()
        .slice(0, 3)
        .map((o) => o.state),
    ).toEqual([true, true, true]);
    await until(h, id, (s) => s.outlets.slice(0, 3).every((o) => o.pending === null && o.physicalState));
    const entries = h
      .activity()
      .filter((e) => e.outlet !== null && e.source === 'window')
      .map((e) => [e.outlet, e.action, e.result]);
    expect(entries).toEqual([
      [1, 'off', 'error'],
      [2, 'on', 'ok'],
      [3, 'on', 'ok'],
    ]);
  });

  it('refuses a temporary selection with a locked outlet as a whole, and says which', async () => {
    const { emu, h, id } = await online(Array(8).fill(false));
    emu.device.lock(2);
    await until(h, id, (s) => s.outlets[2]!.locked);
    const result = await h.call('outlets/set', {
      controllerId: id,
      outlets: [2, 3],
      on: true,
      transient: true,
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.error).toMatchObject({ message: expect.stringMatching(/3/) });
    expect(emu.device.outlets().map((o) => o.transientState)).toEqual(Array(8).fill(false));
    const state = await until(h, id, (s) => s.outlets.every((o) => o.pending === null));
    expect(state.outlets[1]!.physicalState).toBe(false);
  });
});
