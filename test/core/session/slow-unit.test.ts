/**
 * The Core against slow units (real ones take about 5 s to answer `GET relay/outlets/`), scaled down: the
 * emulator's `slowOutletListMs` (the full list only, as real units), `slowOutletsMs` (every outlet answer,
 * writes included: a unit slow everywhere, the harder case) and `latency` against a shorter request
 * budget, with the poll schedule on a fake clock (time moves only when the test fires the next planned
 * poll; the HTTP underneath is real).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, ControllerState, OutletActionResult } from '../../../src-preload/model';
import type { RunningEmulator } from '../../../src-main/emulator';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore, type CoreHarness } from '../harness';

afterEach(cleanUp);

/** Real HTTP runs underneath: on a busy machine it may take more than vi.waitFor's default second. */
const LOADED = { timeout: 15_000, interval: 10 };

const POLL_MS = 60_000;

/** A Core on a fake clock, hidden (a poll is one request: the outlets), with a slow controller added. */
async function slowSetUp(options: { slowOutletsMs?: number; requestTimeoutMs?: number }) {
  const clock = new FakeClock();
  // Both delays pinned (0 unless asked for), whichever profile runs the file: each test sets its own.
  const emu = await emulator({
    initialStates: Array(8).fill(false),
    slowOutletListMs: 0,
    slowOutletsMs: options.slowOutletsMs ?? 0,
  });
  const h = newCore({
    clock,
    visible: false,
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  await h.ok('settings/set', { pollIntervalMs: POLL_MS });
  const summary = await addController(h, emu);
  // The first poll is planned, and the reads after connecting (relay timing) are done.
  await vi.waitFor(() => expect(clock.nextIn()).toBe(POLL_MS), LOADED);
  await vi.waitFor(() => {
    expect(emu.device.stats.log.some((e) => e.path.includes('cycle_delay'))).toBe(true);
    expect(emu.device.stats.inFlight).toBe(0);
  }, LOADED);
  return { clock, emu, h, id: summary.id };
}

/** Wait until no poll runs (the next one is planned); returns the wait until it. */
function idle(clock: FakeClock, timeout = 10_000): Promise<number> {
  return vi.waitFor(
    () => {
      const next = clock.nextIn();
      if (next === null) throw new Error('a poll is still running');
      return next;
    },
    { timeout, interval: 5 },
  );
}

/** Wait until no poll runs, then fire the next one. */
async function nextPoll(clock: FakeClock): Promise<void> {
  await clock.advance(await idle(clock));
}

/** Fire planned polls until `done` holds (at most 40). */
async function pollUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 40 && !done(); i++) await nextPoll(clock);
  expect(done()).toBe(true);
}

function statesSince(h: CoreHarness, from: number, id: string): ControllerState[] {
  return h.events
    .slice(from)
    .filter((e) => e.name === 'state/changed')
    .map((e) => e.payload as ControllerState)
    .filter((s) => s.id === id);
}

const entriesFor = (h: CoreHarness, outlet: number): ActivityEntry[] =>
  h.activity().filter((e) => e.outlet === outlet);

const pendingOf = (h: CoreHarness, id: string, outlet: number) =>
  h.state(id)?.outlets.find((o) => o.number === outlet)?.pending ?? null;

function expectNoOutsideChange(h: CoreHarness, emu: RunningEmulator): void {
  expect(h.activity().filter((e) => e.source === 'outside')).toEqual([]);
  expect(h.notices).toEqual([]);
  expect(emu.device.stats.maxInFlight).toBe(1);
}

describe('switching a slow unit', () => {
  it('is not followed by "offline TIMEOUT" when a poll and the switch wait for each other', async () => {
    // A unit slow everywhere: each answer under relay/outlets/ (the write too) takes 600 ms of a 1 s
    // budget; queued behind another, 1.2 s.
    const { clock, emu, h, id } = await slowSetUp({ slowOutletsMs: 600, requestTimeoutMs: 1000 });
    const from = h.events.length;
    const poll = clock.advance(POLL_MS);
    const result = await h.call<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [4],
      on: true,
    });
    await poll;
    expect(result).toEqual({ ok: true, value: { requested: [4], failed: [] } });
    await pollUntil(clock, () => pendingOf(h, id, 4) === null);
    expect(statesSince(h, from, id).map((s) => s.status)).not.toContain('offline');
    expect(h.state(id)?.outlets[3]).toMatchObject({ state: true, physicalState: true });
    expect(entriesFor(h, 4).map((e) => [e.action, e.result])).toEqual([['on', 'ok']]);
    expectNoOutsideChange(h, emu);
  });

  it('answers a stale-nonce challenge within its own deadline: done, not TIMEOUT', async () => {
    const { clock, emu, h, id } = await slowSetUp({ requestTimeoutMs: 1000 });
    // Every answer, the 401 included, takes 600 ms: challenge and retry together take 1.2 s.
    emu.device.latency = 600;
    emu.device.expireNonces();
    const result = await h.call('outlets/set', { controllerId: id, outlets: [2], on: true });
    expect(result).toEqual({ ok: true, value: { requested: [2], failed: [] } });
    emu.device.latency = 0;
    await pollUntil(clock, () => pendingOf(h, id, 2) === null);
    expect(entriesFor(h, 2).map((e) => [e.action, e.result])).toEqual([['on', 'ok']]);
    expect(h.logged.filter((line) => /TIMEOUT|failed/.test(line))).toEqual([]);
    expectNoOutsideChange(h, emu);
  });
});

describe('a write whose answer never came', () => {
  it('is "not confirmed yet", shows pending, and the next poll records it done once', async () => {
    const { clock, emu, h, id } = await slowSetUp({ requestTimeoutMs: 1000 });
    await nextPoll(clock);
    await idle(clock);
    // A unit slow everywhere switches at once but answers after 1.6 s: Plugboard stops waiting at 1 s.
    emu.device.slowOutletsMs = 1600;
    const result = await h.call('outlets/set', { controllerId: id, outlets: [3], on: true });
    expect(result).toEqual({ ok: true, value: { requested: [3], failed: [], unconfirmed: [3] } });
    expect(emu.device.outlet(2).state).toBe(true);
    expect(pendingOf(h, id, 3)).toMatchObject({ kind: 'state', target: true });
    expect(entriesFor(h, 3)).toEqual([]);
    emu.device.slowOutletsMs = 0;
    await pollUntil(clock, () => pendingOf(h, id, 3) === null);
    expect(entriesFor(h, 3).map((e) => [e.action, e.result, e.source])).toEqual([['on', 'ok', 'window']]);
    // Later polls neither record it again nor call it an outside change.
    await nextPoll(clock);
    await nextPoll(clock);
    expect(entriesFor(h, 3)).toHaveLength(1);
    expect(h.state(id)?.status).toBe('online');
    expectNoOutsideChange(h, emu);
  });

  it('is settled as failed once when the next poll shows it did not happen', async () => {
    const { clock, emu, h, id } = await slowSetUp({ requestTimeoutMs: 1000 });
    // The switch never reaches the relay and never gets an answer.
    emu.device.faults.add({ kind: 'hang', method: 'PUT', path: 'relay/outlets/', times: 1 });
    const result = await h.call('outlets/set', { controllerId: id, outlets: [5], on: true });
    expect(result).toEqual({ ok: true, value: { requested: [5], failed: [], unconfirmed: [5] } });
    emu.device.faults.clear();
    await pollUntil(clock, () => pendingOf(h, id, 5) === null);
    const entries = entriesFor(h, 5);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'on (not confirmed)',
      result: 'error',
      error: { code: 'TIMEOUT', message: expect.stringMatching(/did not answer.*did not happen/) },
    });
    expect(h.state(id)?.outlets[4]).toMatchObject({ state: false, pending: null });
    await nextPoll(clock);
    expect(entriesFor(h, 5)).toHaveLength(1);
    expectNoOutsideChange(h, emu);
  });
});

describe('rebooting a slow unit', () => {
  it('keeps showing "rebooting" when a poll that began before the reboot finishes after it', async () => {
    const { clock, emu, h, id } = await slowSetUp({ requestTimeoutMs: 5000 });
    // The reboot request is on the wire (100 ms) when a poll begins: the poll's read waits behind it and
    // is answered after the controller accepted the reboot, just before it goes down (150 ms later).
    emu.device.latency = 100;
    const from = h.events.length;
    const reboot = h.ok('system/reboot', { controllerId: id });
    await vi.waitFor(() => expect(emu.device.stats.inFlight).toBe(1), LOADED);
    const poll = clock.advance(POLL_MS);
    await reboot;
    await poll;
    await idle(clock);
    const statuses = statesSince(h, from, id).map((s) => s.status);
    expect(statuses).toContain('rebooting');
    expect(statuses.filter((status) => status !== 'rebooting')).toEqual([]);
    expect(h.state(id)?.status).toBe('rebooting');
    // Down, then back (real time); the next probes find it and it is online again.
    await vi.waitFor(() => expect(emu.device.rebooting).toBe(true));
    await vi.waitFor(() => expect(emu.device.rebooting).toBe(false), { timeout: 10_000 });
    emu.device.latency = 0;
    await pollUntil(clock, () => h.state(id)?.status === 'online');
    expect(h.activity().map((e) => e.action)).toContain('back online after the reboot');
  });

  it('finds a unit that takes 5 s to answer with the first probe after it is back (the full 5 s)', async () => {
    const { clock, emu, h, id } = await slowSetUp({});
    await h.ok('system/reboot', { controllerId: id });
    await vi.waitFor(() => expect(emu.device.rebooting).toBe(true));
    await vi.waitFor(() => expect(emu.device.rebooting).toBe(false), { timeout: 10_000 });
    // Back, but as slow as a real unit: the full outlet list, which the probe reads, takes 5.5 s (a probe
    // used to give up after 5 s).
    emu.device.slowOutletListMs = 5500;
    const unauthorized = emu.device.stats.unauthorized;
    await nextPoll(clock);
    // The probe's first request meets the forgotten nonce (401); its answer is then under way and
    // already carries the delay: later reads (the refresh after the reboot) need not wait again.
    await vi.waitFor(() => {
      expect(emu.device.stats.unauthorized).toBeGreaterThan(unauthorized);
      expect(emu.device.stats.inFlight).toBe(1);
    }, LOADED);
    emu.device.slowOutletListMs = 0;
    await idle(clock, 20_000);
    expect(h.state(id)?.status).toBe('online');
    expect(h.activity().map((e) => e.action)).toContain('back online after the reboot');
  }, 30_000);
});
