/**
 * Meter ids that changed (rest.html's `buses.0.voltage` vs the object model's platform ids): saved
 * limits and kept history carry over to the new id, and what cannot be matched is dropped and said.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's meter map (platform ids on real
 * units).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MeterHistory, MeterReading, Settings } from '../../../src-preload/model';
import { MeterSeries } from '../../../src-main/core/meters/meter-history';
import { carryHistory, carryThresholds, matchMeterIds } from '../../../src-main/core/meters/meter-ids';
import { addController, cleanUp, emulator, meterKey, newCore } from '../harness';

afterEach(cleanUp);

/** rest.html's simple meter ids (`buses.0.voltage`), whichever Vitest project runs the file. */
const FAST = { realUnit: false, slowOutletListMs: 0 } as const;
/** The real-unit profile's object-model meter map (`mains_voltage`), in both projects too. */
const REAL = { realUnit: true, slowOutletListMs: 300 } as const;

const reading = (
  key: string,
  name: string,
  unit: MeterReading['unit'],
  bus: number | null = null,
): MeterReading => ({
  key,
  name,
  unit,
  bus,
  quantity: 'other',
  value: 1,
});

const OBJECT_MODEL = [
  reading('power_voltage', 'Voltage', 'V'),
  reading('power_current', 'Current', 'A'),
  reading('probe_temperature', 'Probe', '°C'),
  reading('cpu_temperature', 'CPU', '°C'),
];

describe('matching old meter ids to new ones', () => {
  it('by name, else by the one new meter of the same unit and bus; ambiguity is not guessed', () => {
    const moves = matchMeterIds(
      [
        { key: 'buses.0.voltage' },
        { key: 'buses.0.current', name: 'AC current', unit: 'A' },
        { key: 'sensors.0.temperature', name: 'Probe', unit: '°C' },
        { key: 'environment.temperature' },
        { key: 'buses.0.total_energy' },
      ],
      OBJECT_MODEL,
      new Set(),
    );
    expect(moves.moved).toEqual([
      ['buses.0.voltage', 'power_voltage'],
      ['buses.0.current', 'power_current'],
      ['sensors.0.temperature', 'probe_temperature'],
      // The only °C meter left once "Probe" was taken by name.
      ['environment.temperature', 'cpu_temperature'],
    ]);
    expect(moves.dropped).toEqual(['buses.0.total_energy']);
    const twoOpen = matchMeterIds([{ key: 'environment.temperature' }], OBJECT_MODEL, new Set());
    expect(twoOpen).toEqual({ moved: [], dropped: ['environment.temperature'] });
  });

  it('history follows a meter to its new id, samples kept', () => {
    const series = new MeterSeries();
    series.add(1000, [reading('buses.0.voltage', 'Voltage', 'V')]);
    series.add(2000, [{ ...reading('buses.0.voltage', 'Voltage', 'V'), value: 2 }]);
    expect(carryHistory(series, OBJECT_MODEL)).toEqual([['buses.0.voltage', 'power_voltage']]);
    series.add(3000, OBJECT_MODEL);
    expect(series.history('power_voltage')?.v).toEqual([1, 2, 1]);
    expect(series.history('buses.0.voltage')).toBeNull();
  });

  it('limits use the moves the history found, and leave other controllers alone', () => {
    const thresholds = [
      { controllerId: 'a', key: 'buses.0.voltage', min: 100, max: 130 },
      { controllerId: 'b', key: 'buses.0.voltage', min: 1, max: 2 },
    ];
    const carried = carryThresholds(
      thresholds,
      'a',
      OBJECT_MODEL,
      new Map([['buses.0.voltage', 'power_voltage']]),
    );
    expect(carried?.next).toEqual([
      { controllerId: 'a', key: 'power_voltage', min: 100, max: 130 },
      { controllerId: 'b', key: 'buses.0.voltage', min: 1, max: 2 },
    ]);
    expect(carryThresholds(carried!.next, 'a', OBJECT_MODEL)).toBeNull();
  });
});

describe('the Core carries saved limits over after a meter read', () => {
  it('moves limits to the ids the controller reports now and records what was dropped', async () => {
    // About the simple ids the fast profile reports (the other way round is the firmware update below).
    const emu = await emulator(FAST);
    const h = newCore();
    const { id } = await addController(h, emu, { name: 'Bench A' });
    // Saved under ids this controller does not use (another firmware's): mains_voltage, mains_current
    // match the only V and A meters; two °C meters make "board_temperature" ambiguous.
    await h.ok('settings/set', {
      meterThresholds: [
        { controllerId: id, key: 'mains_voltage', min: 100, max: 130 },
        { controllerId: id, key: 'mains_current', min: null, max: 10 },
        { controllerId: id, key: 'board_temperature', min: null, max: 50 },
      ],
    });
    // The limits move after a meter read: one now instead of at the next poll.
    await h.ok('controllers/refresh', { id });
    await expect
      .poll(() => h.all('settings/changed').some((s) => s.meterThresholds.length === 2), { timeout: 15_000 })
      .toBe(true);
    const settled = h.all('settings/changed').find((s) => s.meterThresholds.length === 2)!;
    expect(settled.meterThresholds).toEqual([
      { controllerId: id, key: 'buses.0.voltage', min: 100, max: 130 },
      { controllerId: id, key: 'buses.0.current', min: null, max: 10 },
    ]);
    expect((await h.ok<Settings>('settings/get', {})).meterThresholds).toEqual(settled.meterThresholds);
    await expect
      .poll(() => h.activity().filter((e) => e.source === 'system').length, { timeout: 15_000 })
      .toBe(3);
    const entries = h.activity().filter((e) => e.source === 'system');
    expect(entries.filter((e) => e.result === 'ok').map((e) => e.action)).toEqual([
      expect.stringContaining('mains_voltage moved to buses.0.voltage'),
      expect.stringContaining('mains_current moved to buses.0.current'),
    ]);
    const dropped = entries.find((e) => e.result === 'error');
    expect(dropped?.action).toBe('meter limit for board_temperature dropped');
    expect(dropped?.error?.message).toContain('no longer reports meter board_temperature');
  });

  it('carries limits and kept history over when a firmware update moves the meters to object-model ids', async () => {
    const serial = 'LPC9' + String(Date.now()).slice(-10);
    const before = await emulator({ ...FAST, serial });
    const port = Number(new URL(before.url).port);
    const h = newCore();
    const { id } = await addController(h, before, { name: 'Bench A' });
    await h.ok('settings/set', {
      meterThresholds: [
        { controllerId: id, key: 'buses.0.voltage', min: 100, max: 130 },
        { controllerId: id, key: 'buses.0.current', min: null, max: 10 },
        { controllerId: id, key: 'environment.temperature', min: null, max: 330 },
      ],
    });
    const kept = await h.ok<MeterHistory>('meters/history', { controllerId: id, key: 'buses.0.voltage' });
    expect(kept.t.length).toBeGreaterThan(0);

    // The same unit comes back at the same address with the object model's meter map.
    await before.close();
    const after = await emulator({ ...REAL, serial, port });
    const voltage = meterKey(after, 'buses.0.voltage');
    expect(voltage).not.toBe('buses.0.voltage');
    await expect
      .poll(() => h.all('settings/changed').some((s) => s.meterThresholds.some((t) => t.key === voltage)), {
        timeout: 30_000,
      })
      .toBe(true);
    expect((await h.ok<Settings>('settings/get', {})).meterThresholds).toEqual([
      { controllerId: id, key: voltage, min: 100, max: 130 },
      { controllerId: id, key: meterKey(after, 'buses.0.current'), min: null, max: 10 },
      { controllerId: id, key: meterKey(after, 'environment.temperature'), min: null, max: 330 },
    ]);
    const moved = await h.ok<MeterHistory>('meters/history', { controllerId: id, key: voltage });
    expect(moved.t.slice(0, kept.t.length)).toEqual(kept.t);
    expect(moved.v.slice(0, kept.v.length)).toEqual(kept.v);
    expect(moved.t.length).toBeGreaterThan(kept.t.length);
    const gone = await h.call('meters/history', { controllerId: id, key: 'buses.0.voltage' });
    expect(gone).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(h.activity().filter((e) => e.result === 'error' && e.action.startsWith('meter limit'))).toEqual(
      [],
    );
  });
});
