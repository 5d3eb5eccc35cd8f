/**
 * `outlets/cycle` with `delay` (pdudaemon's reboot, issue 15): Plugboard switches the outlet off, waits on
 * the Core's clock, and switches it on; a Core told to stop during the wait still switches it back on.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's relay while Plugboard holds it
 * off.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutletActionResult, Result } from '../../../src-preload/contract';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

const LOADED = { timeout: 15_000, interval: 10 };

/** The emulator's outlet 3 (index 2), as the relay has it. */
const third = (emu: Awaited<ReturnType<typeof emulator>>) => emu.device.outlet(2);

/** Wait (real time) until the cycle's wait is planned on the fake clock: a timer of exactly `ms`. */
async function waitPlanned(clock: FakeClock, ms: number) {
  await vi.waitFor(() => expect(clock.timersOf(ms)).toBeGreaterThan(0), LOADED);
}

describe('a delayed cycle', () => {
  it('switches off, waits the delay on the clock, then switches on and answers', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ clock });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    let answered: Result<OutletActionResult> | null = null;
    void h
      .call<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 3, delay: 30 })
      .then((result) => (answered = result));
    await vi.waitFor(() => expect(third(emu).state).toBe(false), LOADED);
    await waitPlanned(clock, 30_000);
    await clock.advance(29_000);
    expect(third(emu).state).toBe(false);
    expect(answered).toBeNull();
    await clock.advance(1_000);
    await vi.waitFor(
      () => expect(answered).toEqual({ ok: true, value: { requested: [3], failed: [] } }),
      LOADED,
    );
    expect(third(emu).state).toBe(true);
    const actions = h
      .activity()
      .filter((e) => e.outlet === 3)
      .map((e) => [e.action, e.result]);
    expect(actions).toEqual([
      ['cycle: off for 30 s', 'ok'],
      ['cycle: on after 30 s', 'ok'],
    ]);
  });

  it('switches back on even when someone else reserves the outlet during the wait', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ clock, user: 'alice' });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const cycling = h.call<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 3, delay: 30 });
    await vi.waitFor(() => expect(third(emu).state).toBe(false), LOADED);
    await waitPlanned(clock, 30_000);
    const bob = h.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' });
    await bob['reservations/take']({
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing',
      durationMs: 3_600_000,
    });
    await clock.advance(30_000);
    expect(await cycling).toEqual({ ok: true, value: { requested: [3], failed: [] } });
    expect(third(emu).state).toBe(true);
    // A new switch by alice is refused: only the cycle already under way was let through.
    expect(await h.call('outlets/set', { controllerId: id, outlets: [3], on: false })).toMatchObject({
      ok: false,
      error: { code: 'RESERVED' },
    });
  });

  it('switches the outlet back on when the Core is stopped during the wait', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ clock });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const cycling = h.call('outlets/cycle', { controllerId: id, outlet: 3, delay: 120 });
    await vi.waitFor(() => expect(third(emu).state).toBe(false), LOADED);
    await waitPlanned(clock, 120_000);
    let stopped = false;
    const disposing = h.core.dispose().then(() => (stopped = true));
    await clock.advance(60_000);
    // Still waiting out the delay: the stop has not cut it short.
    expect(stopped).toBe(false);
    expect(third(emu).state).toBe(false);
    await clock.advance(60_000);
    await disposing;
    expect(third(emu).state).toBe(true);
    expect(await cycling).toMatchObject({ ok: true });
  });

  it('switches back on at once when a stop cannot wait any longer (hurry), without the clock moving', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ clock });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const cycling = h.call('outlets/cycle', { controllerId: id, outlet: 3, delay: 300 });
    await vi.waitFor(() => expect(third(emu).state).toBe(false), LOADED);
    await waitPlanned(clock, 300_000);
    const disposing = h.core.dispose();
    h.core.hurry();
    await disposing;
    expect(third(emu).state).toBe(true);
    expect(await cycling).toMatchObject({ ok: true });
    expect(h.logged).toContainEqual(
      'stopping now: switch Bench A outlet 3 back on after 300 s without waiting the rest',
    );
  });

  it('stops at its bound when the switch back on hangs: the delay plus two request deadlines', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ clock, requestTimeoutMs: 60_000 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    void h.call('outlets/cycle', { controllerId: id, outlet: 3, delay: 10 });
    await vi.waitFor(() => expect(third(emu).state).toBe(false), LOADED);
    await waitPlanned(clock, 10_000);
    // The unit stops answering writes: the switch back on never gets its answer.
    emu.device.faults.add({ kind: 'hang', method: 'PUT' });
    emu.device.faults.add({ kind: 'hang', method: 'POST' });
    let stopped = false;
    const disposing = h.core.dispose().then(() => (stopped = true));
    await clock.advance(10_000);
    await clock.advance(119_000);
    expect(stopped).toBe(false);
    await clock.advance(1_000);
    await disposing;
    expect(h.logged).toContainEqual(
      'stopping with unfinished operations (their time ran out): switch Bench A outlet 3 back on after 10 s',
    );
  });

  it('refuses a delay that is not whole seconds from 0 to 300, naming the field', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    for (const delay of [-1, 1.5, 301]) {
      const result = await h.call('outlets/cycle', { controllerId: id, outlet: 3, delay });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'BAD_INPUT', message: expect.stringMatching(/delay/) },
      });
    }
    expect(emu.device.stats.log.filter((e) => e.method === 'PUT' || e.method === 'POST')).toEqual([]);
  });
});
