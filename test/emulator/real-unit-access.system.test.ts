import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, header, json, until } from './clients';

// The real unit's tokens, user grants, meter map and cycle (issue 14; sources in the emulator README).
let real: RunningEmulator;
let api: string;
const csrf = { 'X-CSRF': 'x' };
const outlets = Array(8).fill(true) as boolean[];

beforeAll(async () => {
  real = await startEmulator({ realUnit: true, slowOutletListMs: 0, cycleDelay: 0.4, sequenceDelay: 0 });
  api = `${real.url}/restapi`;
});
afterAll(() => real.close());

const bearer = (token: string) => ({
  auth: 'none' as const,
  headers: { Authorization: `Bearer ${token}`, ...csrf },
});

describe('DLI token scopes: get, modify and invoke separately', () => {
  it('modify does not imply get; a cycle needs invoke', async () => {
    const writer = real.device.issueToken('writer', ['/relay/outlets/?access=modify']);
    expect((await curl(`${api}/relay/outlets/2/state/`, bearer(writer))).status).toBe(403);
    const put = await curl(`${api}/relay/outlets/2/transient_state/`, {
      ...bearer(writer),
      method: 'PUT',
      data: 'value=false',
    });
    expect(put.status).toBe(204);
    real.device.setOutlet(2, { state: true });
    const cycle = await curl(`${api}/relay/outlets/2/cycle/`, { ...bearer(writer), method: 'POST' });
    expect(cycle.status).toBe(403);
    expect(real.device.outlet(2).cycling).toBe(false);
  });

  it('a comma list grants each access it names', async () => {
    const all = real.device.issueToken('all', ['/relay/outlets/?access=get,modify,invoke']);
    expect(json(await curl(`${api}/relay/outlets/3/name/`, bearer(all)))).toBe('Outlet 4');
    real.device.setOutlet(3, { state: true });
    expect((await curl(`${api}/relay/outlets/3/cycle/`, { ...bearer(all), method: 'POST' })).status).toBe(
      204,
    );
    expect(real.device.outlet(3).cycling).toBe(true);
    await real.device.whenSettled();
  });

  it('registers a client with the body of DLI token script, and refuses the simple form "read"', async () => {
    const hash = 'ab'.repeat(32);
    const registered = await curl(`${api}/auth/clients/bot/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: JSON.stringify({
        name: 'bot',
        redirect_urls: {},
        scopes: { '/relay/outlets/all;/=state,transient_state/?access=modify,get': true },
        refresh_tokens: {},
        access_tokens: { [hash]: {} },
      }),
    });
    expect(registered.status).toBe(204);
    expect(json(await curl(`${api}/auth/clients/bot/scopes/`))).toEqual({
      '/relay/outlets/all;/=state,transient_state/?access=modify,get': true,
    });
    const read = await curl(`${api}/auth/clients/old/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: JSON.stringify({ name: 'old', scopes: { '/relay/?access=read': true } }),
    });
    expect(read.status).toBe(400);
    expect(json(read)).toMatchObject({ message: expect.stringMatching(/get, modify, invoke/) });
  });
});

describe('non-admin users and the External APIs grant', () => {
  beforeAll(() => {
    real.device.addUser({ name: 'granted', password: 'pw1', outletAccess: outlets });
    real.device.addUser({ name: 'ungranted', password: 'pw2', outletAccess: outlets, externalApis: false });
  });

  it('with the grant, a user may toggle outlets and nothing else', async () => {
    const as = { user: 'granted', password: 'pw1', headers: csrf };
    const put = await curl(`${api}/relay/outlets/1/state/`, { ...as, method: 'PUT', data: 'value=false' });
    expect(put.status).toBe(204);
    const rename = await curl(`${api}/relay/outlets/1/name/`, { ...as, method: 'PUT', data: 'value=x' });
    expect(rename.status).toBe(403);
    const script = await curl(`${api}/script/start/`, {
      ...as,
      method: 'POST',
      data: '[{"user_function":"flash_a_light"}]',
    });
    expect(script.status).toBe(403);
  });

  it('without it, every request gets 403 naming the External APIs page', async () => {
    const answer = await curl(`${api}/relay/outlets/`, { user: 'ungranted', password: 'pw2' });
    expect(answer.status).toBe(403);
    expect(json(answer)).toMatchObject({
      error: 'not_granted',
      message: expect.stringMatching(/External APIs/),
    });
    real.device.grantExternalApis('ungranted', true);
    try {
      expect((await curl(`${api}/relay/outlets/`, { user: 'ungranted', password: 'pw2' })).status).toBe(200);
    } finally {
      real.device.grantExternalApis('ungranted', false);
    }
  });

  it.each([401, 404] as const)('ungrantedStatus %i is answered instead', async (status) => {
    const emu = await startEmulator({ externalApiGrant: true, ungrantedStatus: status });
    try {
      emu.device.addUser({ name: 'u', password: 'pw', outletAccess: outlets, externalApis: false });
      const answer = await curl(`${emu.url}/restapi/relay/outlets/`, { user: 'u', password: 'pw' });
      expect(answer.status).toBe(status);
      if (status === 401) expect(header(answer, 'www-authenticate')).toMatch(/^DIGEST /);
    } finally {
      await emu.close();
    }
  });

  it('the fast profile ignores the grant', async () => {
    const emu = await startEmulator();
    try {
      emu.device.addUser({ name: 'u', password: 'pw', outletAccess: outlets, externalApis: false });
      expect((await curl(`${emu.url}/restapi/relay/outlets/`, { user: 'u', password: 'pw' })).status).toBe(
        200,
      );
    } finally {
      await emu.close();
    }
  });
});

describe('the object-model meter map', () => {
  it('platform ids, every field, internal entries, and false where there is no reading', async () => {
    const values = json(await curl(`${api}/meter/values/`)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(values)).toContain('mains_voltage');
    expect(Object.keys(values).some((id) => id.startsWith('buses.'))).toBe(false);
    expect(values.mains_voltage).toMatchObject({
      name: 'AC voltage',
      quantity: 'voltage',
      bus: null,
      custom: false,
      internal: false,
      log_history: true,
      history_parameters: expect.any(Array),
      intervals: [],
    });
    expect(values.mains_voltage?.value).toBeGreaterThan(100);
    expect(values.power_voltage?.internal).toBe(true);
    expect(values['sensors.1.temperature']?.value).toBe(false);
  });

  it('device.setMeter pins an id; null reads as false', async () => {
    real.device.setMeter('sensors.0.temperature', null);
    real.device.setMeter('mains_current', 2.5);
    try {
      expect(json(await curl(`${api}/meter/values/sensors.0.temperature/value/`))).toBe(false);
      expect(json(await curl(`${api}/meter/values/mains_current/value/`))).toBe(2.5);
      expect(real.device.meterMap().mains_current?.value).toBe(2.5);
    } finally {
      real.device.resetMeter('sensors.0.temperature');
      real.device.resetMeter('mains_current');
    }
    expect(real.device.meterMap()['sensors.0.temperature']?.value).toEqual(expect.any(Number));
  });
});

describe('the two cycle behaviours', () => {
  const transientDuringCycle = async (emu: RunningEmulator) => {
    emu.device.setOutlet(5, { state: true, cycleDelay: 2 });
    await emu.device.whenSettled();
    const api = `${emu.url}/restapi`;
    expect((await curl(`${api}/relay/outlets/5/cycle/`, { method: 'POST', headers: csrf })).status).toBe(204);
    const during = json(await curl(`${api}/relay/outlets/5/`)) as Record<string, boolean>;
    const after = await until(
      async () => json(await curl(`${api}/relay/outlets/5/`)) as Record<string, boolean>,
      (outlet) => outlet.physical_state === true,
    );
    return { during, after };
  };

  it('follows-relay: the transient state goes off with the relay and comes back on with it', async () => {
    const { during, after } = await transientDuringCycle(real);
    expect(during).toMatchObject({ physical_state: false, transient_state: false, state: true });
    expect(after).toMatchObject({ transient_state: true, state: true });
  });

  it('stays-on (the fast default): the transient state stays on through the off-time', async () => {
    const emu = await startEmulator({ cycleDelay: 0.4, sequenceDelay: 0 });
    try {
      const { during, after } = await transientDuringCycle(emu);
      expect(during).toMatchObject({ physical_state: false, transient_state: true });
      expect(after).toMatchObject({ transient_state: true });
    } finally {
      await emu.close();
    }
  });

  it('follows-relay: switching off during the off-time ends the cycle with the outlet off', async () => {
    real.device.setOutlet(6, { state: true });
    await real.device.whenSettled();
    await curl(`${api}/relay/outlets/6/cycle/`, { method: 'POST', headers: csrf });
    await curl(`${api}/relay/outlets/6/transient_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=false',
    });
    await real.device.whenSettled();
    expect(real.device.outlet(6)).toMatchObject({
      transientState: false,
      physicalState: false,
      cycling: false,
    });
  });
});

describe('outlet and relay settings on a real unit', () => {
  it('cycle_delay, sequence_delay and critical are writable; locked is not', async () => {
    const patch = await curl(`${api}/relay/outlets/4/`, {
      method: 'PATCH',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: JSON.stringify({ critical: true, cycle_delay: 7 }),
    });
    expect(patch.status).toBe(204);
    expect(real.device.outlet(4)).toMatchObject({ critical: true, cycleDelay: 7 });
    const relay = await Promise.all(
      ['cycle_delay', 'sequence_delay'].map((field) =>
        curl(`${api}/relay/${field}/`, { method: 'PUT', headers: csrf, data: 'value=2' }),
      ),
    );
    expect(relay.map((answer) => answer.status)).toEqual([204, 204]);
    expect(json(await curl(`${api}/relay/cycle_delay/`))).toBe(2);
    const locked = await curl(`${api}/relay/outlets/4/locked/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(locked.status).toBe(405);
    expect(real.device.outlet(4).locked).toBe(false);
    real.device.setOutlet(4, { critical: false, cycleDelay: null });
    await curl(`${api}/relay/sequence_delay/`, { method: 'PUT', headers: csrf, data: 'value=0' });
  });
});
