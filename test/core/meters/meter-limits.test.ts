/**
 * Meter limit breaches (issue 16 item 11) through the real Core against the emulator: a reading crosses
 * its limit → the Core publishes the breach (event and call) and the tray menu shows it; back inside →
 * it clears. Polls run on the fake clock. The CSV follows the °C/°F setting.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's meter map (platform ids on real
 * units).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LimitBreach, Settings } from '../../../src-preload/contract';
import {
  buildTrayMenu,
  trayIconState,
  trayToolTip,
  type TrayState,
} from '../../../src-main/core/tray/tray-menu';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, meterKey, newCore, type CoreHarness } from '../harness';
import { polls } from '../poll-steps';

afterEach(cleanUp);

async function trayState(h: CoreHarness): Promise<TrayState> {
  const snapshot = await h.ok<{
    controllers: TrayState['controllers'];
    states: TrayState['states'];
    groups: TrayState['groups'];
    settings: Settings;
  }>('app/snapshot', {});
  return {
    controllers: snapshot.controllers,
    states: snapshot.states,
    groups: snapshot.groups,
    favourites: [],
    windowVisible: true,
    breaches: await h.ok<LimitBreach[]>('meters/breaches', {}),
    temperatureUnit: snapshot.settings.temperatureUnit,
  };
}

const breachLines = (state: TrayState) =>
  buildTrayMenu(state)
    .filter((item) => item.id.startsWith('breach:'))
    .map((item) => ('label' in item ? item.label : ''));

describe('meter limit breaches', () => {
  it('are published when a reading crosses its limit, shown in the tray, and cleared when back', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 500, meterLimitHoldSeconds: 0 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const voltage = meterKey(emu, 'buses.0.voltage');
    emu.device.setMeter(voltage, 118.5);
    await polls(clock, 1);
    await h.ok('settings/set', { meterThresholds: [{ controllerId: id, key: voltage, min: 110, max: 125 }] });
    await polls(clock, 1);
    expect(await h.ok('meters/breaches', {})).toEqual([]);
    expect(breachLines(await trayState(h))).toEqual([]);

    emu.device.setMeter(voltage, 130);
    await polls(clock, 1);
    const first = h.all('meters/breaches').at(-1)!;
    expect(first).toEqual([
      {
        controllerId: id,
        key: voltage,
        name: 'AC voltage',
        unit: 'V',
        side: 'above',
        value: 130,
        limit: 125,
        since: expect.any(Number),
        insideSince: null,
      },
    ]);
    expect(await h.ok('meters/breaches', {})).toEqual(first);
    const tray = await trayState(h);
    expect(breachLines(tray)).toEqual(['⚠ Bench A: AC voltage above the maximum of 125 V']);
    expect(trayIconState(tray)).toBe('offline');
    expect(trayToolTip(tray)).toBe('Plugboard: a meter is outside its limits');

    // Still outside: the reading moves, the breach keeps its start.
    emu.device.setMeter(voltage, 131);
    await polls(clock, 1);
    const later = h.all('meters/breaches').at(-1)!;
    expect(later[0]).toMatchObject({ value: 131, since: first[0]!.since });

    // Below the minimum: the other side, a new episode.
    emu.device.setMeter(voltage, 100);
    await polls(clock, 1);
    expect(h.all('meters/breaches').at(-1)).toEqual([
      expect.objectContaining({ side: 'below', value: 100, limit: 110 }),
    ]);

    emu.device.setMeter(voltage, 120);
    await polls(clock, 1);
    expect(h.all('meters/breaches').at(-1)).toEqual([]);
    expect(await h.ok('meters/breaches', {})).toEqual([]);
    const cleared = await trayState(h);
    expect(breachLines(cleared)).toEqual([]);
    expect(trayToolTip(cleared)).not.toMatch(/limits/);
  });

  it('follows the limits: a changed limit the reading fits ends the breach, a removed controller drops it', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 500, meterLimitHoldSeconds: 0 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const voltage = meterKey(emu, 'buses.0.voltage');
    emu.device.setMeter(voltage, 118.5);
    await h.ok('settings/set', {
      meterThresholds: [{ controllerId: id, key: voltage, min: null, max: 100 }],
    });
    await polls(clock, 1);
    expect(await h.ok<LimitBreach[]>('meters/breaches', {})).toHaveLength(1);
    // Raised above the reading: cleared at once, without waiting for a poll.
    await h.ok('settings/set', {
      meterThresholds: [{ controllerId: id, key: voltage, min: null, max: 200 }],
    });
    expect(await h.ok('meters/breaches', {})).toEqual([]);
    await h.ok('settings/set', {
      meterThresholds: [{ controllerId: id, key: voltage, min: null, max: 100 }],
    });
    expect(await h.ok<LimitBreach[]>('meters/breaches', {})).toHaveLength(1);
    await h.ok('controllers/remove', { id });
    expect(await h.ok('meters/breaches', {})).toEqual([]);
  });

  it('holds: a reading that flips across its limit at every poll is no breach; one that stays is, and stays until back for the hold time', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    // Polls every 0.5 s; a breach needs 2 s (four polls) on the other side to begin or end.
    await h.ok('settings/set', { pollIntervalMs: 500, meterLimitHoldSeconds: 2 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const voltage = meterKey(emu, 'buses.0.voltage');
    emu.device.setMeter(voltage, 120.4);
    await h.ok('settings/set', {
      meterThresholds: [{ controllerId: id, key: voltage, min: null, max: 120.5 }],
    });
    await polls(clock, 1);
    const published = () => h.all('meters/breaches').length;
    const before = published();

    // Across the limit and back at every poll, ten times: nothing is published.
    for (let i = 0; i < 10; i++) {
      emu.device.setMeter(voltage, i % 2 === 0 ? 120.53 : 120.47);
      await polls(clock, 1);
    }
    expect(published()).toBe(before);
    expect(await h.ok('meters/breaches', {})).toEqual([]);

    // Outside for good: a breach once the reads have stayed outside for 2 s, dated from the first of them.
    emu.device.setMeter(voltage, 120.53);
    await polls(clock, 1);
    const firstOutside = clock.now();
    await polls(clock, 3);
    expect(await h.ok('meters/breaches', {})).toEqual([]);
    await polls(clock, 1);
    const [breach] = await h.ok<LimitBreach[]>('meters/breaches', {});
    const began = published();
    expect(breach).toMatchObject({ side: 'above', value: 120.53, limit: 120.5, insideSince: null });
    expect(breach!.since).toBeGreaterThanOrEqual(firstOutside - 500);
    expect(breach!.since).toBeLessThanOrEqual(firstOutside);

    // Back inside for a moment, then out again: the same breach all along, never gone.
    emu.device.setMeter(voltage, 120.47);
    await polls(clock, 1);
    const waiting = (await h.ok<LimitBreach[]>('meters/breaches', {}))[0]!;
    expect(waiting).toMatchObject({ since: breach!.since, value: 120.53, insideSince: expect.any(Number) });
    emu.device.setMeter(voltage, 120.6);
    await polls(clock, 1);
    expect(await h.ok('meters/breaches', {})).toEqual([
      expect.objectContaining({ since: breach!.since, value: 120.6, insideSince: null }),
    ]);
    expect(
      h
        .all('meters/breaches')
        .slice(began - 1)
        .map((list) => list.length),
    ).not.toContain(0);

    // Back inside for the hold time: it ends.
    emu.device.setMeter(voltage, 120.4);
    await polls(clock, 4);
    expect(await h.ok('meters/breaches', {})).toHaveLength(1);
    await polls(clock, 1);
    expect(await h.ok('meters/breaches', {})).toEqual([]);
  });

  it('words temperatures in °F in the tray and exports the CSV in °F with a °F header', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 500, temperatureUnit: 'F', meterLimitHoldSeconds: 0 });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const temperature = meterKey(emu, 'environment.temperature');
    // Kelvin on the wire: 303.16 K is 30 °C, 86 °F.
    emu.device.setMeter(temperature, 303.16);
    await h.ok('settings/set', {
      meterThresholds: [{ controllerId: id, key: temperature, min: null, max: 25 }],
    });
    await polls(clock, 2);
    expect(breachLines(await trayState(h))).toEqual([
      '⚠ Bench A: Internal temperature above the maximum of 77 °F',
    ]);
    const { csv } = await h.ok<{ csv: string }>('meters/exportCsv', { controllerId: id });
    const [header, ...rows] = csv.trim().split('\r\n');
    const columns = header!.split(',');
    const column = columns.indexOf('Internal temperature (°F)');
    expect(column).toBeGreaterThan(0);
    expect(columns.some((c) => c.includes('°C'))).toBe(false);
    expect(Number(rows.at(-1)!.split(',')[column])).toBeCloseTo(86, 3);

    await h.ok('settings/set', { temperatureUnit: 'C' });
    const again = (await h.ok<{ csv: string }>('meters/exportCsv', { controllerId: id })).csv.split('\r\n');
    const celsius = again[0]!.split(',').indexOf('Internal temperature (°C)');
    expect(celsius).toBeGreaterThan(0);
    expect(Number(again.at(-2)!.split(',')[celsius])).toBeCloseTo(30, 3);
  });
});
