/**
 * A unit that publishes its outlet changes over MQTT, on the Core's fake clock while the HTTP underneath
 * runs for real: each message (`core.unitSaid`) reads the outlets at once, messages during a read share
 * one more read, the outlet poll slows to the safety interval once the unit is heard (meters keep the
 * steady interval), and a message on the unit's own `…/set` topic warns at most once per unit per hour.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControllerSummary } from '../../../src-preload/model';
import type { RunningEmulator } from '../../../src-main/emulator';
import { cleanUp, emulator, newCore, until, type CoreHarness } from '../harness';
import { FakeClock } from '../fake-clock';

afterEach(cleanUp);

/** Real HTTP runs underneath: on a busy machine it may take more than vi.waitFor's default second. */
const LOADED = { timeout: 15_000, interval: 5 };
const ROOT = 'lab/pdu1';

/** The outlet reads since the stats were reset: '' for the whole list, '2/' for the outlet at index 2. */
const outletReads = (emu: RunningEmulator): string[] =>
  emu.device.stats.log
    .filter((e) => e.method === 'GET' && /\/relay\/outlets\//.test(e.path))
    .map((e) => e.path.replace(/^.*\/relay\/outlets\//, ''));
const outletLists = (emu: RunningEmulator): number => outletReads(emu).filter((p) => p === '').length;
const meterReads = (emu: RunningEmulator): number =>
  emu.device.stats.log.filter((e) => e.method === 'GET' && /\/meter\//.test(e.path)).length;

async function added(h: CoreHarness, emu: RunningEmulator, mqttTopic: string | null = ROOT) {
  const summary = await h.ok<ControllerSummary>('controllers/add', {
    url: emu.url,
    name: 'Bench A',
    auth: { kind: 'digest', user: 'admin', password: '1234' },
    ...(mqttTopic ? { mqttTopic } : {}),
  });
  await until(h, summary.id, (s) => s.status === 'online');
  return summary;
}

/** The wait the session plans next, once no poll runs (a planned timer is there). */
const planned = (clock: FakeClock, ms: number) => vi.waitFor(() => expect(clock.nextIn()).toBe(ms), LOADED);

const message = (outlet: number) => ({ outlet, topic: `${ROOT}/outlets/${outlet}`, payload: '1' });

describe('a unit that publishes its outlet changes', () => {
  it('reads the outlet a message names at once, and messages during that read share one more read', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const h = newCore({ clock, visible: false });
    await h.ok('settings/set', { pollIntervalMs: 3000, unitSafetyPollMs: 60_000 });
    const { id } = await added(h, emu);
    await planned(clock, 3000);
    // A change at the unit, then its message: the read is planned now, not at the poll 3 s away.
    emu.device.setOutlet(2, { state: true });
    emu.device.stats.reset();
    emu.device.slowOutletsMs = 200;
    h.core.unitSaid(id, message(2));
    expect(clock.nextIn()).toBe(0);
    await clock.advance(0);
    await vi.waitFor(() => expect(emu.device.stats.inFlight).toBe(1), LOADED);
    // Five more messages while the read runs: one read follows it, not five (of the whole list: they
    // name more than half the outlets).
    for (let i = 0; i < 5; i++) h.core.unitSaid(id, message(i));
    await planned(clock, 0);
    expect(h.state(id)?.outlets[2]?.state).toBe(true);
    expect(h.activity()).toContainEqual(
      expect.objectContaining({ controllerId: id, outlet: 3, action: 'on', source: 'outside' }),
    );
    await clock.advance(0);
    // Then the unit is heard: the next outlet read is the safety one, a minute away.
    await planned(clock, 60_000);
    expect(outletReads(emu)).toEqual(['2/', '']);
  });

  it('reads a named outlet with the outlets waiting for confirmation, and the whole list for an unknown one', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const h = newCore({ clock, visible: false });
    await h.ok('settings/set', { pollIntervalMs: 3000 });
    const { id } = await added(h, emu);
    await planned(clock, 3000);
    // Outlet 6 switched on through Plugboard, still pending (its confirming polls are not let run).
    emu.device.slowOutletsMs = 0;
    await h.ok('outlets/set', { controllerId: id, outlets: [6], on: true, transient: true });
    await vi.waitFor(() => expect(h.state(id)?.outlets[5]?.pending).not.toBeNull(), LOADED);
    emu.device.stats.reset();
    emu.device.setOutlet(0, { state: true });
    h.core.unitSaid(id, message(0));
    await clock.advance(0);
    await vi.waitFor(() => expect(h.state(id)?.outlets[5]?.pending).toBeNull(), LOADED);
    expect(h.state(id)?.outlets[0]?.state).toBe(true);
    expect(outletReads(emu)).toEqual(['0/', '5/']);
    // A message the Core cannot place (another subtree, no outlet given): the whole list.
    emu.device.stats.reset();
    h.core.unitSaid(id, { outlet: null, topic: `${ROOT}/status`, payload: 'x' });
    await vi.waitFor(() => expect(clock.nextIn()).toBe(0), LOADED);
    await clock.advance(0);
    await vi.waitFor(() => expect(outletReads(emu)).toEqual(['']), LOADED);
  });

  it('polls the outlets at the safety interval once heard, and steadily again without a topic', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ meters: false });
    const h = newCore({ clock, visible: false });
    await h.ok('settings/set', { pollIntervalMs: 3000 });
    const { id } = await added(h, emu);
    // A topic saved but nothing heard yet: the unit may not be publishing, the steady interval holds.
    await planned(clock, 3000);
    h.core.unitSaid(id, message(0));
    await clock.advance(0);
    await planned(clock, 30_000);
    // A message under another root is nothing this unit said.
    h.core.unitSaid(id, { outlet: 0, topic: 'lab/pdu10/outlets/0', payload: '1' });
    expect(clock.nextIn()).toBe(30_000);
    // A message 20 s on reads its outlet; the whole list stays due 30 s after the last whole read.
    await clock.advance(20_000);
    h.core.unitSaid(id, message(4));
    await clock.advance(0);
    await planned(clock, 10_000);
    emu.device.stats.reset();
    await clock.advance(10_000);
    await planned(clock, 30_000);
    expect(outletLists(emu)).toBe(1);
    // The unit no longer publishes: back to the steady interval at once.
    await h.ok('controllers/update', { id, mqttTopic: null });
    expect(clock.nextIn()).toBeLessThanOrEqual(3000);
    await clock.advance(clock.nextIn()!);
    await planned(clock, 3000);
  });

  it('keeps reading the meters at the steady interval while the outlets wait for the safety read', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock, visible: true });
    await h.ok('settings/set', { pollIntervalMs: 3000, unitSafetyPollMs: 15_000 });
    const { id } = await added(h, emu);
    h.core.unitSaid(id, message(0));
    await clock.advance(0);
    await planned(clock, 3000);
    emu.device.stats.reset();
    // 15 s of steady polls: the meters at each, the outlets once, at the safety interval.
    for (let i = 0; i < 5; i++) {
      await clock.advance(3000);
      await planned(clock, 3000);
    }
    expect(meterReads(emu)).toBe(5);
    expect(outletLists(emu)).toBe(1);
  });

  it('refuses a safety interval under 5 s or over 10 minutes', async () => {
    const h = newCore();
    for (const unitSafetyPollMs of [1000, 3_600_000]) {
      const result = await h.call('settings/set', { unitSafetyPollMs });
      expect(result).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    }
  });
});

describe("a message on a unit's own set topic", () => {
  it('warns naming the unit in the activity log and the log, at most once per unit per hour', async () => {
    const clock = new FakeClock();
    const [a, b] = [await emulator(), await emulator()];
    const h = newCore({ clock, visible: false });
    const first = await added(h, a);
    const second = await h.ok<ControllerSummary>('controllers/add', {
      url: b.url,
      name: 'Bench B',
      auth: { kind: 'digest', user: 'admin', password: '1234' },
      mqttTopic: 'lab/pdu2',
    });
    const warnings = () => h.activity().filter((e) => e.source === 'mqtt' && e.result === 'error');
    h.core.unitSetSeen(first.id, `${ROOT}/outlets/0/set`);
    h.core.unitSetSeen(first.id, `${ROOT}/outlets/1/set`);
    expect(warnings()).toEqual([
      expect.objectContaining({
        controllerId: first.id,
        controllerName: 'Bench A',
        error: expect.objectContaining({
          message: expect.stringMatching(/Bench A obeys anyone there.*turn "Allow write" off/),
        }),
      }),
    ]);
    expect(h.logged.filter((line) => /Allow write/.test(line))).toHaveLength(1);
    // Another unit is warned about on its own.
    h.core.unitSetSeen(second.id, 'lab/pdu2/outlets/0/set');
    expect(warnings().map((e) => e.controllerName)).toEqual(['Bench A', 'Bench B']);
    await clock.advance(3_599_000);
    h.core.unitSetSeen(first.id, `${ROOT}/outlets/0/set`);
    expect(warnings()).toHaveLength(2);
    await clock.advance(1000);
    h.core.unitSetSeen(first.id, `${ROOT}/outlets/0/set`);
    expect(warnings().map((e) => e.controllerName)).toEqual(['Bench A', 'Bench B', 'Bench A']);
  });
});
