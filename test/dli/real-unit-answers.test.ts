/**
 * Answers real units give that the emulator does not model (reference §13), from a fixture server on
 * 127.0.0.1: a matrix write whose failed element carries `error` without `status`, and a meter map with
 * `false` values, internal entries and fields Plugboard does not know.
 */
import { EXIT_PARTIAL } from '../../src-main/cli/exit-codes';
import { describe, expect, it, vi } from 'vitest';
import { cleanEnv, cli } from '../cli/run-cli';
import { fixtureUnit, type FixtureHandler } from './fixture-unit';
import { client } from './helpers';

vi.setConfig({ testTimeout: 120_000 });

/** `all;` switched on, except outlet 8 (API index 7), which answers `{"error":"locked"}` and no status. */
const lockedEighth: FixtureHandler = (method, path) => {
  if (method !== 'PUT' || !/^relay\/outlets\/(all;|=[\d,]+)\/state\/$/.test(path)) return undefined;
  return { status: 207, body: [...Array.from({ length: 7 }, () => null), { error: 'locked' }] };
};

describe('a matrix write whose failed element has no status', () => {
  it('counts the element with `error` as failed, naming the outlet and the reason', async () => {
    const unit = await fixtureUnit({}, lockedEighth);
    const result = await client(unit.url).outlets.setState('all', true);
    expect(result.requested).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]?.outlet).toBe(8);
    expect(result.failed[0]?.error.code).toBe('LOCKED');
    expect(result.failed[0]?.error.message).toMatch(/outlet 8|Outlet 8/);
    expect(result.failed[0]?.error.message).toContain('locked');
  });

  it('keeps an unknown error word as the reason', async () => {
    const unit = await fixtureUnit({}, (method, path) =>
      method === 'PUT' && path.startsWith('relay/outlets/=')
        ? { status: 207, body: [null, { error: 'relay fault' }] }
        : undefined,
    );
    const result = await client(unit.url).outlets.setState([2, 5], false);
    expect(result.failed.map((f) => f.outlet)).toEqual([5]);
    expect(result.failed[0]?.error.code).toBe('DEVICE_ERROR');
    expect(result.failed[0]?.error.message).toContain('relay fault');
  });

  it('plugboard on all prints outlets 1–7 as switched, names outlet 8 as locked and exits 8 (partly done)', async () => {
    const unit = await fixtureUnit({}, lockedEighth);
    const result = await cli(['--url', unit.url, '--user', 'admin', 'on', 'all'], {
      env: cleanEnv({ PLUGBOARD_PASSWORD: '1234' }),
    });
    expect(result.code).toBe(EXIT_PARTIAL);
    expect(result.stdout).toContain('outlets 1, 2, 3, 4, 5, 6, 7 on');
    expect(result.stdout).not.toMatch(/\b8\b/);
    expect(result.stderr).toMatch(/outlet 8.*locked/i);
  });
});

/** An object-model meter map (LPC9 guide, DLI object model): platform ids, `false` values, internal entries. */
const OBJECT_MODEL_METERS = {
  power_voltage: {
    name: 'Voltage',
    value: 119.8,
    quantity: 'voltage',
    bus: null,
    custom: false,
    internal: false,
    log_history: true,
    history_time_step: 60,
    alarm_high: 130,
  },
  'sensors.1.temperature': false,
  'sensors.0.temperature': {
    name: 'Probe',
    value: false,
    quantity: 'temperature',
    bus: null,
    custom: false,
    internal: false,
  },
  reference_voltage: { name: 'Reference', value: 3.3, quantity: 'voltage', bus: null, internal: true },
  mains_current: { name: 'Current', value: 0.42, quantity: 'current', bus: null, internal: false },
};

describe('a meter map with odd entries', () => {
  it('reads every entry: no reading for `false`, internal ones hidden unless asked, other fields kept', async () => {
    const unit = await fixtureUnit({ 'meter/values/': OBJECT_MODEL_METERS });
    const readings = (await client(unit.url).meters())!;
    expect(readings.map((r) => r.key)).toEqual([
      'mains_current',
      'power_voltage',
      'sensors.0.temperature',
      'sensors.1.temperature',
    ]);
    const byKey = Object.fromEntries(readings.map((r) => [r.key, r]));
    expect(byKey['power_voltage']).toMatchObject({ value: 119.8, unit: 'V', quantity: 'voltage', bus: null });
    expect(byKey['power_voltage']!.fields).toEqual({
      custom: false,
      log_history: true,
      history_time_step: 60,
      alarm_high: 130,
    });
    expect(byKey['sensors.0.temperature']).toMatchObject({ value: null, unit: '°C', name: 'Probe' });
    expect(byKey['sensors.1.temperature']).toMatchObject({ value: null, quantity: 'temperature' });
    const all = (await client(unit.url).meters({ internal: true }))!;
    expect(all.find((r) => r.key === 'reference_voltage')).toMatchObject({ internal: true, value: 3.3 });
  });

  it('plugboard meters shows "no reading" and the rest, and --all adds internal meters', async () => {
    const unit = await fixtureUnit({ 'meter/values/': OBJECT_MODEL_METERS });
    const env = cleanEnv({ PLUGBOARD_PASSWORD: '1234' });
    const login = ['--url', unit.url, '--user', 'admin'];
    const table = await cli([...login, 'meters'], { env });
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Probe\s+no reading/);
    expect(table.stdout).toMatch(/Voltage\s+119\.8/);
    expect(table.stdout).not.toContain('Reference');
    const all = await cli([...login, '--json', 'meters', '--all'], { env });
    expect(all.code).toBe(0);
    const rows = all.json<{ key: string; internal?: boolean; value: number | null }[]>();
    expect(rows.find((r) => r.key === 'reference_voltage')).toMatchObject({ internal: true, value: 3.3 });
    expect(rows.find((r) => r.key === 'sensors.1.temperature')).toMatchObject({ value: null });
  });
});

describe('a depth read whose $ref leaves are relative to the resource read', () => {
  it('hands every ref on absolute, resolved against the path read, and the refs can be followed', async () => {
    const unit = await fixtureUnit({
      'config/': {
        hostname: { $ref: 'hostname/' },
        ssh: { port: { $ref: 'ssh/port/' } },
        up: { $ref: '../relay/' },
      },
      'config/hostname/': 'lpc9-bench',
      '': { config: { $ref: 'config/' }, relay: { $ref: '/restapi/relay/' } },
    });
    const c = client(unit.url);
    const config = await c.system.tree('config', 2);
    expect(config.value).toEqual({
      hostname: { $ref: '/restapi/config/hostname/' },
      ssh: { port: { $ref: '/restapi/config/ssh/port/' } },
      up: { $ref: '/restapi/relay/' },
    });
    const root = await c.system.tree('', 1);
    expect(root.value).toEqual({ config: { $ref: '/restapi/config/' }, relay: { $ref: '/restapi/relay/' } });
    const followed = (config.value as { hostname: { $ref: string } }).hostname.$ref;
    expect((await c.system.tree(followed, 1)).value).toBe('lpc9-bench');
  });
});
