import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator, ZERO_CURRENT } from '../../src-main/emulator/index';
import { curl, header, json, python, until } from './clients';

let emu: RunningEmulator;
let api: string;
const csrf = { 'X-CSRF': 'x' };
const METER_KEYS = [
  'buses.0.voltage',
  'buses.0.current',
  'buses.0.total_energy',
  'environment.temperature',
  'sensors.0.temperature',
  'sensors.0.relative_humidity',
];

beforeAll(async () => {
  emu = await startEmulator({
    serial: 'LPC92712030336',
    cycleDelay: 0.3,
    sequenceDelay: 0,
    rebootSeconds: 3,
    initialStates: Array(8).fill(false) as boolean[],
  });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('config/ and cred/', () => {
  it('serves serial, version, hostname and brand_name', async () => {
    const results = await python({
      base: emu.url,
      requests: ['serial', 'version', 'hostname', 'brand_name', 'brand_company_name'].map((key) => ({
        path: `/restapi/config/${key}/`,
      })),
    });
    expect(results.map((r) => JSON.parse(r.body))).toEqual([
      'LPC92712030336',
      '1.12.14.0',
      expect.stringMatching(/^[a-z0-9-]+$/),
      'Web Power Switch',
      'Digital Loggers, Inc.',
    ]);
  });

  it('reads and writes ssh_enabled and hostname, rejecting bad values', async () => {
    expect(json(await curl(`${api}/config/ssh_enabled/`))).toBe(false);
    expect(
      (await curl(`${api}/config/ssh_enabled/`, { method: 'PUT', headers: csrf, data: 'value=true' })).status,
    ).toBe(204);
    expect(json(await curl(`${api}/config/ssh_enabled/`))).toBe(true);
    expect(
      (await curl(`${api}/config/hostname/`, { method: 'PUT', headers: csrf, data: 'value=bench-7' })).status,
    ).toBe(204);
    expect(json(await curl(`${api}/config/hostname/`))).toBe('bench-7');
    expect(
      (await curl(`${api}/config/hostname/`, { method: 'PUT', headers: csrf, data: 'value=-bad host' }))
        .status,
    ).toBe(400);
    expect(
      (await curl(`${api}/config/serial/`, { method: 'PUT', headers: csrf, data: 'value=X' })).status,
    ).toBe(405);
  });

  it('cred/ tells the caller who they are', async () => {
    expect(json(await curl(`${api}/cred/`))).toEqual({
      ip_address: '127.0.0.1',
      is_admin: true,
      name: 'admin',
      agent: 'rest api',
      outlet_access: Array(8).fill(true),
    });
  });
});

describe('reboot', () => {
  it('answers, refuses connections for the reboot time, then comes back with transient states reverted and scripts stopped', async () => {
    emu.device.setOutlet(0, { state: true });
    await curl(`${api}/relay/outlets/0/transient_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=false',
    });
    await curl(`${api}/relay/outlets/1/transient_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    await curl(`${api}/script/start/`, {
      method: 'POST',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: '[{"user_function":"blink_an_outlet","source":"blink_an_outlet(8,5)"}]',
    });
    expect(emu.device.threads()).toHaveLength(1);
    const answer = await curl(`${api}/system/reboot/`, {
      method: 'POST',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: '[]',
    });
    expect(answer.status).toBe(204);
    await until(
      () => refused(emu.url),
      (isRefused) => isRefused,
      5000,
    );
    const down = await curl(`${api}/cred/`, { maxTime: 5 });
    expect(down.exitCode).toBe(7);
    await until(
      () => refused(emu.url),
      (isRefused) => !isRefused,
      15_000,
    );
    const outlets = json(await curl(`${api}/relay/outlets/=0,1/transient_state/`));
    expect(outlets).toEqual([true, false]);
    expect(json(await curl(`${api}/script/threads/`))).toEqual({});
    await until(() => emu.device.settled(), Boolean);
    expect(emu.device.outlet(0).physicalState).toBe(true);
  });

  it('does not exist before firmware 1.11.6.0 (404)', async () => {
    const old = await startEmulator({ firmware: '1.11.5.9' });
    try {
      const answer = await curl(`${old.url}/restapi/system/reboot/`, {
        method: 'POST',
        headers: { ...csrf, 'Content-Type': 'application/json' },
        data: '[]',
      });
      expect(answer.status).toBe(404);
    } finally {
      await old.close();
    }
  });
});

describe('meters', () => {
  it('serves meter/values/ as a map of {name, value, quantity, bus} keyed like a unit', async () => {
    const values = json(await curl(`${api}/meter/values/`)) as Record<
      string,
      { name: string; value: number; quantity: string; bus: number | null }
    >;
    expect(Object.keys(values)).toEqual(METER_KEYS);
    for (const entry of Object.values(values)) {
      expect(entry).toEqual({
        name: expect.any(String),
        value: expect.any(Number),
        quantity: expect.any(String),
        bus: entry.bus,
      });
    }
    expect(values['buses.0.voltage']).toMatchObject({ quantity: 'voltage', bus: 0 });
    expect(values['buses.0.voltage']!.value).toBeGreaterThan(110);
    expect(values['buses.0.voltage']!.value).toBeLessThan(130);
    expect(values['environment.temperature']!.value).toBeGreaterThan(273.16);
    expect(values['environment.temperature']!.value).toBeLessThan(273.16 + 80);
    const humidity = values['sensors.0.relative_humidity']!.value;
    expect(humidity).toBeGreaterThanOrEqual(0);
    expect(humidity).toBeLessThanOrEqual(100);
  });

  it('reports zero current as the float32 denormal when nothing is on, and current following the outlets', async () => {
    for (let i = 0; i < 8; i++) emu.device.setOutlet(i, { state: false });
    const zero = await curl(`${api}/meter/values/buses.0.current/value/`);
    expect(zero.status).toBe(200);
    expect(json(zero)).toBe(ZERO_CURRENT);
    expect(zero.body).toBe('1.401298464324817e-45');
    emu.device.setLoad(2, 2.5);
    await curl(`${api}/relay/outlets/2/state/`, { method: 'PUT', headers: csrf, data: 'value=true' });
    const amps = json(await curl(`${api}/meter/values/buses.0.current/value/`)) as number;
    expect(amps).toBeGreaterThan(2.2);
    expect(amps).toBeLessThan(2.8);
  });

  it('accumulates energy in joules while outlets draw current; values wander', async () => {
    const read = async () => json(await curl(`${api}/meter/values/buses.0.total_energy/value/`)) as number;
    const first = await read();
    const later = await until(read, (value) => value > first + 100);
    expect(later).toBeGreaterThan(first);
    const volts = new Set<number>();
    await until(
      async () => volts.add(json(await curl(`${api}/meter/values/buses.0.voltage/value/`)) as number).size,
      (size) => size >= 3,
    );
  });

  it('lets a test pin sensor values', async () => {
    emu.device.setMeter('sensors.0.temperature', 300.5);
    expect(json(await curl(`${api}/meter/values/sensors.0.temperature/value/`))).toBe(300.5);
    emu.device.resetMeter('sensors.0.temperature');
    emu.device.setMeter('buses.0.current', 0);
    expect(json(await curl(`${api}/meter/values/buses.0.current/value/`))).toBe(ZERO_CURRENT);
    emu.device.resetMeter('buses.0.current');
    expect((await curl(`${api}/meter/values/nope/value/`)).status).toBe(404);
  });

  it('has no meter/ subtree on a controller without meters', async () => {
    const plain = await startEmulator({ meters: false });
    try {
      expect((await curl(`${plain.url}/restapi/meter/values/`)).status).toBe(404);
      expect(
        Object.keys(
          json(await curl(`${plain.url}/restapi/`, { headers: { Range: 'dli-depth=1' } })) as object,
        ),
      ).not.toContain('meter');
    } finally {
      await plain.close();
    }
  });
});

describe('the REST-style API switched off', () => {
  it('answers every /restapi/ request with a 404 HTML page and no challenge, while / still shows the login page', async () => {
    emu.device.setConfig({ restApiEnabled: false });
    try {
      const api404 = await curl(`${api}/relay/outlets/`, { auth: 'none' });
      expect(api404.status).toBe(404);
      expect(header(api404, 'content-type')).toContain('text/html');
      expect(header(api404, 'www-authenticate')).toBeUndefined();
      const page = await curl(`${emu.url}/`, { auth: 'none' });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Web Power Switch</title>');
      expect(page.body).toContain('Digital Loggers');
    } finally {
      emu.device.setConfig({ restApiEnabled: true });
    }
    expect((await curl(`${api}/relay/outlets/0/state/`)).status).toBe(200);
  });
});
