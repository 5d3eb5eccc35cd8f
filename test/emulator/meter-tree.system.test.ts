import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json } from './clients';

// `meter/` holds the meter map and the bus list (`values`, `buses`: DLI's object model reference, meter
// pages; buses are zero-indexed, rest.html), so a client that walks the tree from the root finds the
// meters, in both profiles.
let fast: RunningEmulator;
let real: RunningEmulator;

beforeAll(async () => {
  [fast, real] = await Promise.all([startEmulator(), startEmulator({ realUnit: true, slowOutletListMs: 0 })]);
});
afterAll(() => Promise.all([fast.close(), real.close()]));

/** The keys one level down, as a client walking the tree sees them (a depth-limited read). */
async function keysAt(emu: RunningEmulator, path: string): Promise<string[]> {
  const answer = await curl(`${emu.url}/restapi/${path}`, { headers: { Range: 'dli-depth=1' } });
  expect(answer.status).toBe(206);
  return Object.keys(json(answer) as object);
}

async function read(emu: RunningEmulator, path: string): Promise<unknown> {
  const answer = await curl(`${emu.url}/restapi/${path}`);
  expect(answer.status).toBe(200);
  return json(answer);
}

describe('meter/', () => {
  it('lists values and buses; walking root → meter → buses → 0 finds the bus readings', async () => {
    expect(await keysAt(fast, '')).toContain('meter');
    expect(await keysAt(fast, 'meter/')).toEqual(['values', 'buses']);
    const buses = (await read(fast, 'meter/buses/')) as Record<string, unknown>[];
    expect(buses).toHaveLength(1);
    expect(Object.keys(buses[0]!)).toEqual(['voltage', 'current', 'total_energy']);
    fast.device.setMeter('buses.0.voltage', 121.5);
    fast.device.setMeter('buses.0.current', 2.25);
    try {
      expect(await read(fast, 'meter/buses/0/')).toMatchObject({ voltage: 121.5, current: 2.25 });
      expect(await read(fast, 'meter/buses/0/voltage/')).toBe(121.5);
      // The same reading as the meter map's entry for bus 0.
      expect(await read(fast, 'meter/values/buses.0.voltage/value/')).toBe(121.5);
      expect(await read(fast, 'meter/buses/0/total_energy/')).toEqual(expect.any(Number));
    } finally {
      fast.device.resetMeter('buses.0.voltage');
      fast.device.resetMeter('buses.0.current');
    }
    const missing = await curl(`${fast.url}/restapi/meter/buses/1/`);
    expect(missing.status).toBe(404);
  });

  it('in the object-model map the bus shows the platform ids’ readings, false where there is none', async () => {
    expect(await keysAt(real, 'meter/')).toEqual(['values', 'buses']);
    real.device.setMeter('mains_voltage', 118.75);
    real.device.setMeter('mains_current', null);
    try {
      expect(await read(real, 'meter/buses/0/')).toMatchObject({ voltage: 118.75, current: false });
      expect(await read(real, 'meter/values/mains_voltage/value/')).toBe(118.75);
    } finally {
      real.device.resetMeter('mains_voltage');
      real.device.resetMeter('mains_current');
    }
  });

  it('is a read-only list: writes to a bus reading are refused', async () => {
    const answer = await curl(`${fast.url}/restapi/meter/buses/0/voltage/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=1',
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toEqual(['GET, HEAD']);
  });
});
