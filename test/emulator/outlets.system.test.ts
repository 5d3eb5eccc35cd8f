import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json, python, until } from './clients';

let emu: RunningEmulator;
let api: string;
const csrf = { 'X-CSRF': 'x' };
const allOff = Array(8).fill(false) as boolean[];

beforeAll(async () => {
  emu = await startEmulator({ cycleDelay: 0.4, sequenceDelay: 0.15, initialStates: allOff });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

const physical = async (): Promise<boolean[]> =>
  json(await curl(`${api}/relay/outlets/all;/physical_state/`)) as boolean[];
const reset = async (): Promise<void> => {
  for (let i = 0; i < 8; i++)
    emu.device.setOutlet(i, { state: false, locked: false, critical: false, cycleDelay: null });
  await emu.device.whenSettled();
};

describe('outlet states', () => {
  it('reads name, state, transient_state, physical_state, locked, critical and cycle_delay', async () => {
    await reset();
    const outlet = json(await curl(`${api}/relay/outlets/3/`));
    expect(outlet).toEqual({
      critical: false,
      transient_state: false,
      state: false,
      physical_state: false,
      name: 'Outlet 4',
      locked: false,
      cycle_delay: null,
    });
  });

  it('persistent state: writing it sets the transient state too, and the relay follows', async () => {
    await reset();
    expect(
      (await curl(`${api}/relay/outlets/2/state/`, { method: 'PUT', headers: csrf, data: 'value=true' }))
        .status,
    ).toBe(204);
    expect(json(await curl(`${api}/relay/outlets/2/state/`))).toBe(true);
    expect(json(await curl(`${api}/relay/outlets/2/transient_state/`))).toBe(true);
    await until(physical, (states) => states[2] === true);
  });

  it('transient state switches the relay without touching the persistent state', async () => {
    await reset();
    await curl(`${api}/relay/outlets/4/transient_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    const outlet = json(await curl(`${api}/relay/outlets/4/`)) as Record<string, boolean>;
    expect(outlet.state).toBe(false);
    expect(outlet.transient_state).toBe(true);
    await until(physical, (states) => states[4] === true);
  });

  it('physical_state cannot be written', async () => {
    const answer = await curl(`${api}/relay/outlets/0/physical_state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(answer.status).toBe(405);
  });

  it('outlets switched on together come on one after another (on-sequence delay)', async () => {
    await reset();
    // A generous delay so "not all on yet" holds even on a loaded machine.
    await curl(`${api}/relay/sequence_delay/`, { method: 'PUT', headers: csrf, data: 'value=0.4' });
    const answer = await curl(`${api}/relay/outlets/all;/state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(answer.status).toBe(207);
    expect(json(answer)).toEqual(Array(8).fill(null));
    // Right after the write the transient states are all on but the relays are not yet.
    const right = emu.device.outlets();
    expect(right.every((o) => o.transientState)).toBe(true);
    expect(right.filter((o) => o.physicalState).length).toBeLessThan(8);
    // Seen through the API: the set of physically-on outlets only grows, in index order, until all are on.
    const seen: boolean[][] = [];
    await until(
      async () => {
        const states = await physical();
        seen.push(states);
        return states;
      },
      (states) => states.every(Boolean),
    );
    for (const states of seen) {
      const on = states.lastIndexOf(true);
      expect(states.slice(0, on + 1).every(Boolean)).toBe(true);
    }
    await curl(`${api}/relay/sequence_delay/`, { method: 'PUT', headers: csrf, data: 'value=0.15' });
  });

  it('switching off is immediate', async () => {
    await reset();
    await curl(`${api}/relay/outlets/=0,1/state/`, { method: 'PUT', headers: csrf, data: 'value=true' });
    await until(physical, (states) => states[0] === true && states[1] === true);
    await curl(`${api}/relay/outlets/=0,1/state/`, { method: 'PUT', headers: csrf, data: 'value=false' });
    expect((await physical()).slice(0, 2)).toEqual([false, false]);
  });

  it('honours the outlet count from the options', async () => {
    const small = await startEmulator({ outlets: 3 });
    try {
      const states = json(await curl(`${small.url}/restapi/relay/outlets/all;/state/`)) as boolean[];
      expect(states).toHaveLength(3);
      expect((await curl(`${small.url}/restapi/relay/outlets/3/`)).status).toBe(404);
    } finally {
      await small.close();
    }
  });
});

describe('cycling', () => {
  it('cycle on an off outlet answers 200 false and does nothing', async () => {
    await reset();
    const answer = await curl(`${api}/relay/outlets/5/cycle/`, { method: 'POST', headers: csrf });
    expect(answer.status).toBe(200);
    expect(json(answer)).toBe(false);
    expect(emu.device.outlet(5)).toMatchObject({ physicalState: false, cycling: false });
  });

  it('cycle on an on outlet answers 204, holds the relay off for the cycle delay, then on again', async () => {
    await reset();
    emu.device.setOutlet(5, { state: true, cycleDelay: 2 });
    await emu.device.whenSettled();
    const answer = await curl(`${api}/relay/outlets/5/cycle/`, { method: 'POST', headers: csrf });
    expect(answer.status).toBe(204);
    const during = json(await curl(`${api}/relay/outlets/5/`)) as Record<string, boolean>;
    expect(during.physical_state).toBe(false);
    expect(during.transient_state).toBe(true);
    await until(physical, (states) => states[5] === true);
    expect(emu.device.outlet(5).cycling).toBe(false);
  });

  it('uses the per-outlet cycle_delay over relay/cycle_delay', async () => {
    await reset();
    expect(
      (await curl(`${api}/relay/outlets/6/cycle_delay/`, { method: 'PUT', headers: csrf, data: 'value=30' }))
        .status,
    ).toBe(204);
    emu.device.setOutlet(6, { state: true });
    await emu.device.whenSettled();
    await curl(`${api}/relay/outlets/6/cycle/`, { method: 'POST', headers: csrf });
    // Long past the controller's 0.4 s default, the 30 s per-outlet off-time still runs.
    await new Promise((r) => setTimeout(r, 1200));
    expect(emu.device.outlet(6)).toMatchObject({ physicalState: false, cycling: true });
    await curl(`${api}/relay/outlets/6/cycle_delay/`, {
      method: 'PUT',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: 'null',
    });
    expect(json(await curl(`${api}/relay/outlets/6/cycle_delay/`))).toBeNull();
  });
});

describe('locks and critical outlets', () => {
  it('a locked outlet refuses writes and cycles with 409', async () => {
    await reset();
    emu.device.lock(1);
    const write = await curl(`${api}/relay/outlets/1/state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(write.status).toBe(409);
    expect(json(write)).toMatchObject({ error: 'locked' });
    emu.device.setOutlet(1, { state: true });
    const cycle = await curl(`${api}/relay/outlets/1/cycle/`, { method: 'POST', headers: csrf });
    expect(cycle.status).toBe(409);
    expect(json(await curl(`${api}/relay/outlets/1/locked/`))).toBe(true);
    expect(
      (await curl(`${api}/relay/outlets/1/locked/`, { method: 'PUT', headers: csrf, data: 'value=false' }))
        .status,
    ).toBe(405);
  });

  it('a matrix write skips locked outlets with a per-element 409', async () => {
    await reset();
    emu.device.lock(2);
    const answer = await curl(`${api}/relay/outlets/=1,2,3/state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(answer.status).toBe(207);
    expect(json(answer)).toEqual([null, { status: 409, error: 'locked' }, null]);
    expect(
      emu.device
        .outlets()
        .map((o) => o.state)
        .slice(1, 4),
    ).toEqual([true, false, true]);
  });

  it('reads and writes critical', async () => {
    await reset();
    await curl(`${api}/relay/outlets/0/critical/`, { method: 'PUT', headers: csrf, data: 'value=true' });
    expect(json(await curl(`${api}/relay/outlets/0/critical/`))).toBe(true);
    emu.device.setCritical(0, false);
    expect(json(await curl(`${api}/relay/outlets/all;/critical/`))).toEqual(allOff);
  });
});

describe('relay/set_outlet_transient_states/', () => {
  const call = (pairs: unknown, base = api) =>
    curl(`${base}/relay/set_outlet_transient_states/`, {
      method: 'POST',
      headers: { ...csrf, 'Content-Type': 'application/json' },
      data: JSON.stringify(pairs),
    });

  it('switches the listed outlets at once and answers 204', async () => {
    await reset();
    const answer = await call([
      [
        [0, true],
        [3, true],
        [7, true],
      ],
    ]);
    expect(answer.status).toBe(204);
    // No on-sequence: all three are on as soon as the call returns.
    expect(emu.device.outlets().map((o) => o.physicalState)).toEqual([
      true,
      false,
      false,
      true,
      false,
      false,
      false,
      true,
    ]);
    expect(emu.device.outlet(0).state).toBe(false);
  });

  it('refuses the whole call with 409 and the locked indices when one is locked', async () => {
    await reset();
    emu.device.lock(5);
    const answer = await call([
      [
        [4, true],
        [5, true],
      ],
    ]);
    expect(answer.status).toBe(409);
    expect(json(answer)).toMatchObject({ error: 'locked', outlets: [5] });
    expect(emu.device.outlet(4).transientState).toBe(false);
  });

  it('rejects a malformed body with 400', async () => {
    expect((await call([[0, true]])).status).toBe(400);
    expect((await call([[[99, true]]])).status).toBe(400);
    expect((await call({ 0: true })).status).toBe(400);
  });

  it('does not exist before firmware 1.10.11 (404)', async () => {
    const old = await startEmulator({ firmware: '1.10.10.0' });
    try {
      expect((await call([[[0, true]]], `${old.url}/restapi`)).status).toBe(404);
    } finally {
      await old.close();
    }
  });
});

describe('relay settings', () => {
  it('serves relay/name, model, version, cycle_delay and sequence_delay; writes the writable ones', async () => {
    const [name, model, version, cycle, sequence] = await python({
      base: emu.url,
      requests: ['name', 'model', 'version', 'cycle_delay', 'sequence_delay'].map((field) => ({
        path: `/restapi/relay/${field}/`,
      })),
    });
    expect(JSON.parse(name!.body)).toBe('DLI Controller');
    expect(JSON.parse(model!.body)).toBe('LPC9');
    expect(typeof JSON.parse(version!.body)).toBe('string');
    expect(JSON.parse(cycle!.body)).toBe(0.4);
    expect(JSON.parse(sequence!.body)).toBe(0.15);
    expect(
      (await curl(`${api}/relay/sequence_delay/`, { method: 'PUT', headers: csrf, data: 'value=0.1' }))
        .status,
    ).toBe(204);
    expect(json(await curl(`${api}/relay/sequence_delay/`))).toBe(0.1);
    expect(
      (await curl(`${api}/relay/cycle_delay/`, { method: 'PUT', headers: csrf, data: 'value=-1' })).status,
    ).toBe(400);
    expect(
      (await curl(`${api}/relay/model/`, { method: 'PUT', headers: csrf, data: 'value=x' })).status,
    ).toBe(405);
  });
});
