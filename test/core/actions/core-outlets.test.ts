/**
 * Live outlet state and outlet actions through the Core against the emulator: reads, switching, pending until
 * confirmed, cycles, renames, locks and changes made outside Plugboard.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's outlets, meters, cycles (the
 * transient state follows the relay on real units) and slow outlet reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ControllerState, OutletActionResult } from '../../../src-preload/contract';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, meterKey, newCore, until, type CoreHarness } from '../harness';
import { nextPoll, planned, polls } from '../poll-steps';

afterEach(cleanUp);

/** Every outlet state pushed for outlet `n`, in order (to see pending before confirmed). */
function history(h: CoreHarness, id: string, n: number) {
  return h
    .all('state/changed')
    .filter((s) => s.id === id)
    .map((s) => s.outlets.find((o) => o.number === n)!);
}

/** A Core polling one emulator every second; with `clock`, its schedule runs on that fake clock. */
async function online(options: Parameters<typeof emulator>[0] = {}, clock?: FakeClock) {
  const emu = await emulator(options);
  const h = newCore(clock ? { clock } : {});
  await h.ok('settings/set', { pollIntervalMs: 1000 });
  const summary = await addController(h, emu);
  return { emu, h, id: summary.id };
}

describe('live state', () => {
  it('loads identity, capabilities, every outlet and the meters from the controller', async () => {
    const { emu, h, id } = await online({
      outlets: 10,
      initialStates: [true, false, true, false, true, false, true, false, true, false],
    });
    emu.device.setOutlet(2, { name: 'Scope' });
    const state = await until(h, id, (s) => s.outlets[2]?.name === 'Scope');
    expect(state.identity).toMatchObject({ model: 'LPC9', firmware: '1.12.14.0', serial: emu.device.serial });
    expect(state.capabilities).toMatchObject({ outletCount: 10, isAdmin: true, meters: true, reboot: true });
    expect(state.outlets.map((o) => o.physicalState)).toEqual(
      emu.device.outlets().map((o) => o.physicalState),
    );
    expect(state.outlets.map((o) => o.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(state.meters?.find((m) => m.key === meterKey(emu, 'buses.0.voltage'))).toMatchObject({
      unit: 'V',
      quantity: 'voltage',
    });
    expect(state.scripts?.functions.length).toBeGreaterThan(0);
    expect(state.users?.map((u) => u.name)).toContain('admin');
    expect(state.sshEnabled).toBe(emu.device.config().sshEnabled);
    const snapshot = await h.ok<{ states: ControllerState[] }>('app/snapshot', {});
    expect(snapshot.states.map((s) => s.id)).toEqual([id]);
  });

  it('reads outlets and meters in two requests per steady poll, reusing the login nonce', async () => {
    const clock = new FakeClock();
    const { emu, h, id } = await online({}, clock);
    await until(h, id, (s) => s.scripts !== null);
    // Let the connect reads finish, then count a few steady polls.
    await planned(clock);
    emu.device.stats.reset();
    await polls(clock, 3);
    const paths = emu.device.stats.log.map((entry) => entry.path);
    expect(paths).toEqual(Array(3).fill(['/restapi/relay/outlets/', '/restapi/meter/values/']).flat());
    expect(emu.device.stats.unauthorized).toBe(0);
    expect(emu.device.stats.maxInFlight).toBe(1);
  });
});

describe('outlet actions', () => {
  it('switches outlets on, shows them pending until every relay is on (on-sequence), then confirmed', async () => {
    const { emu, h, id } = await online({ sequenceDelay: 0.15, initialStates: Array(8).fill(false) });
    const result = await h.ok<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [2, 5, 7],
      on: true,
    });
    expect(result).toEqual({ requested: [2, 5, 7], failed: [] });
    expect(emu.device.outlets().map((o) => o.state)).toEqual([
      false,
      true,
      false,
      false,
      true,
      false,
      true,
      false,
    ]);
    const done = await until(h, id, (s) =>
      [2, 5, 7].every((n) => s.outlets[n - 1]!.physicalState && !s.outlets[n - 1]!.pending),
    );
    expect(done.outlets.map((o) => o.state)).toEqual(emu.device.outlets().map((o) => o.state));
    // Outlet 7 came on last: it was seen pending with its physical state still off.
    expect(
      history(h, id, 7).some((o) => o.pending?.kind === 'state' && o.pending.target && !o.physicalState),
    ).toBe(true);
    const entries = h.activity().filter((e) => e.action === 'on');
    expect(entries.map((e) => [e.outlet, e.source, e.result])).toEqual([
      [2, 'window', 'ok'],
      [5, 'window', 'ok'],
      [7, 'window', 'ok'],
    ]);
  });

  it('sets transient states, and "all" off', async () => {
    const { emu, h, id } = await online();
    await h.ok('outlets/set', { controllerId: id, outlets: [8], on: true, transient: true });
    expect(emu.device.outlet(7)).toMatchObject({ state: false, transientState: true });
    await until(h, id, (s) => s.outlets[7]!.transientState && !s.outlets[7]!.state && !s.outlets[7]!.pending);
    const all = await h.ok<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: 'all',
      on: false,
    });
    expect(all.requested).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(emu.device.outlets().every((o) => !o.physicalState)).toBe(true);
    await until(h, id, (s) => s.outlets.every((o) => !o.physicalState && !o.pending));
    expect(h.activity().filter((e) => e.action === 'off')).toHaveLength(8);
  });

  it('cycles an outlet with a countdown, pending until it is back on after the off-time', async () => {
    const clock = new FakeClock();
    // An off-time long enough that the poll the answer asks for finds the relay off, however busy.
    const { emu, h, id } = await online({ cycleDelay: 1.5 }, clock);
    await planned(clock);
    const result = await h.ok<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 1 });
    expect(result).toEqual({ requested: [1], failed: [] });
    expect(emu.device.outlet(0).cycling).toBe(true);
    // The countdown ends the unit's off-time after it answered, on the Core's clock (which has not moved).
    const cycling = await until(h, id, (s) => s.outlets[0]!.cycleEndsAt !== null);
    expect(cycling.outlets[0]!.pending).toMatchObject({ kind: 'cycle', target: true });
    expect(cycling.outlets[0]!.cycleEndsAt).toBe(clock.now() + 1500);
    await nextPoll(clock);
    expect(h.state(id)!.outlets[0]).toMatchObject({ physicalState: false, pending: { kind: 'cycle' } });
    // Still pending while the relay is off; confirmed by the first poll after it is back on.
    await emu.device.whenSettled(10_000);
    await nextPoll(clock);
    expect(h.state(id)!.outlets[0]).toMatchObject({ physicalState: true, cycleEndsAt: null, pending: null });
    expect(history(h, id, 1).some((o) => o.pending && !o.physicalState)).toBe(true);
  });

  it('explains that an outlet which is off cannot be cycled', async () => {
    const { h, id } = await online();
    const result = await h.ok<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 8 });
    expect(result.failed).toEqual([
      {
        outlet: 8,
        error: { code: 'BAD_INPUT', message: expect.stringMatching(/is off, so there is nothing to cycle/) },
      },
    ]);
  });

  it('switches several outlets simultaneously with one request', async () => {
    const { emu, h, id } = await online();
    emu.device.stats.reset();
    const result = await h.ok<OutletActionResult>('outlets/switch', {
      controllerId: id,
      changes: [
        { outlet: 1, on: false },
        { outlet: 6, on: true },
        { outlet: 7, on: true },
      ],
    });
    expect(result.failed).toEqual([]);
    const writes = emu.device.stats.log.filter((e) => e.method !== 'GET');
    expect(writes.map((e) => e.path)).toEqual(['/restapi/relay/set_outlet_transient_states/']);
    expect(emu.device.outlets().map((o) => o.transientState)).toEqual([
      false,
      true,
      true,
      true,
      false,
      true,
      true,
      false,
    ]);
    await until(h, id, (s) => s.outlets.every((o) => !o.pending) && s.outlets[6]!.physicalState);
    expect(
      h
        .activity()
        .filter((e) => e.action.includes('together'))
        .map((e) => [e.outlet, e.action]),
    ).toEqual([
      [1, 'off (temporary, together)'],
      [6, 'on (temporary, together)'],
      [7, 'on (temporary, together)'],
    ]);
  });

  it('renames an outlet and shows the new name at once', async () => {
    const clock = new FakeClock();
    const { emu, h, id } = await online({}, clock);
    await h.ok('outlets/rename', { controllerId: id, outlet: 3, name: '  Scope  ' });
    expect(emu.device.outlet(2).name).toBe('Scope');
    expect(h.state(id)!.outlets[2]!.name).toBe('Scope');
    expect(h.activity().at(-1)).toMatchObject({ outlet: 3, action: 'renamed to "Scope"', result: 'ok' });
    // Plugboard's own rename is not reported as an outside change by the polls that read it.
    await polls(clock, 2);
    expect(h.state(id)!.outlets[2]!.name).toBe('Scope');
    expect(h.activity().filter((e) => e.source === 'outside')).toEqual([]);
  });

  it('reports a locked outlet per outlet and switches the others', async () => {
    const { emu, h, id } = await online({ initialStates: Array(8).fill(false) });
    emu.device.lock(3);
    await until(h, id, (s) => s.outlets[3]!.locked);
    const result = await h.ok<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [3, 4, 5],
      on: true,
    });
    expect(result.requested).toEqual([3, 4, 5]);
    expect(result.failed).toEqual([
      {
        outlet: 4,
        error: expect.objectContaining({ code: 'LOCKED', message: expect.stringMatching(/locked/) }),
      },
    ]);
    expect(
      emu.device
        .outlets()
        .slice(2, 5)
        .map((o) => o.state),
    ).toEqual([true, false, true]);
    const state = await until(h, id, (s) => s.outlets.every((o) => !o.pending));
    expect(state.outlets[3]).toMatchObject({ state: false, locked: true, pending: null });
    expect(h.activity().find((e) => e.outlet === 4 && e.action === 'on')).toMatchObject({
      result: 'error',
      error: { code: 'LOCKED' },
    });
    const single = await h.ok<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 4 });
    expect(single.failed[0]?.error.code).toBe('LOCKED');
  });

  it('notices outlets changed by someone else and records them as outside, observed', async () => {
    const clock = new FakeClock();
    const { emu, h, id } = await online({}, clock);
    emu.device.setOutlet(0, { state: false });
    emu.device.setOutlet(5, { transientState: true });
    await nextPoll(clock);
    expect(h.state(id)!.outlets[0]!.physicalState).toBe(false);
    expect(h.state(id)!.outlets[5]!.transientState).toBe(true);
    // The next poll reads the same states: nothing new to report.
    await nextPoll(clock);
    const outside = h.activity().filter((e) => e.source === 'outside');
    expect(outside.map((e) => [e.outlet, e.action, e.result])).toEqual([
      [1, 'off', 'observed'],
      [6, 'on (temporary)', 'observed'],
    ]);
    expect(h.notices.map((n) => n.body)).toEqual(['Outlet 1: off.', 'Outlet 6: on (temporary).']);
  });

  it('reports a change that was undone before it took effect as not confirmed', async () => {
    const { emu, h, id } = await online({ sequenceDelay: 1, initialStates: Array(8).fill(false) });
    await h.ok('outlets/set', { controllerId: id, outlets: 'all', on: true });
    // Outlet 8 waits its turn in the on-sequence; someone switches it off on the keypad meanwhile.
    emu.device.setOutlet(7, { state: false });
    await until(h, id, (s) => s.outlets[7]!.pending === null, 10_000);
    const failed = h.activity().find((e) => e.outlet === 8 && e.result === 'error');
    expect(failed).toMatchObject({
      action: 'on (not confirmed)',
      source: 'window',
      error: { code: 'TIMEOUT', message: expect.stringMatching(/something else changed it/) },
    });
    expect(h.state(id)!.outlets[7]).toMatchObject({ state: false, physicalState: false });
  });

  it('answers wrong outlet numbers and unknown controllers with clear errors', async () => {
    const { h, id } = await online({ outlets: 4 });
    const tooHigh = await h.call('outlets/set', { controllerId: id, outlets: [5], on: true });
    expect(tooHigh).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/4 outlets|outlet 5/i) },
    });
    const unknown = await h.call('outlets/set', { controllerId: 'nope', outlets: [1], on: true });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
