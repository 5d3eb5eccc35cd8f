import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json, until } from './clients';

let emu: RunningEmulator;
let api: string;
const headers = { 'X-CSRF': 'x', 'Content-Type': 'application/json' };

beforeAll(async () => {
  emu = await startEmulator({
    cycleDelay: 0.3,
    sequenceDelay: 0,
    initialStates: Array(8).fill(false) as boolean[],
  });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

const start = (items: unknown) =>
  curl(`${api}/script/start/`, { method: 'POST', headers, data: JSON.stringify(items) });
const stop = (ids: unknown) =>
  curl(`${api}/script/stop/`, { method: 'POST', headers, data: JSON.stringify(ids) });
const threads = async () => json(await curl(`${api}/script/threads/`)) as Record<string, { label: string }>;

describe('scripts', () => {
  it('lists the user functions as a map', async () => {
    const answer = await curl(`${api}/script/user_functions/`);
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({ flash_a_light: {}, cycle_an_outlet: {}, blink_an_outlet: {} });
  });

  it('starts cycle_an_outlet(5, …) with a 1-based outlet: outlet 5 (index 4) goes off, then on', async () => {
    emu.device.setOutlet(4, { state: true });
    const answer = await start([{ user_function: 'cycle_an_outlet', source: 'cycle_an_outlet(5,2)' }]);
    expect(answer.status).toBe(200);
    const id = json(answer);
    expect(id).toMatch(/^\d+$/);
    const running = await threads();
    expect(running[id as string]?.label).toBe('cycle_an_outlet (admin via rest api) 5 2');
    expect(emu.device.outlet(4).transientState).toBe(false);
    expect(emu.device.outlet(3).transientState).toBe(false);
    await until(
      () => emu.device.outlet(4).physicalState,
      (on) => on,
    );
    await until(threads, (map) => !(String(id) in map));
  });

  it('flash_a_light really toggles an outlet and puts it back', async () => {
    emu.device.setOutlet(1, { state: false });
    const seen = new Set<boolean>();
    const sampler = setInterval(() => seen.add(emu.device.outlet(1).physicalState), 20);
    const answer = await start([{ user_function: 'flash_a_light', source: 'flash_a_light(2, 2, 0.4)' }]);
    expect(answer.status).toBe(200);
    await until(threads, (map) => Object.keys(map).length === 0);
    clearInterval(sampler);
    expect(seen.has(true)).toBe(true);
    expect(emu.device.outlet(1).transientState).toBe(false);
  });

  it('answers 409 for an unknown function or bad arguments and starts nothing', async () => {
    const cases = [
      [{ user_function: 'format_disk' }],
      [{ user_function: 'cycle_an_outlet' }],
      [{ user_function: 'cycle_an_outlet', source: 'cycle_an_outlet(0,1)' }],
      [{ user_function: 'cycle_an_outlet', source: 'cycle_an_outlet(9,1)' }],
      [{ user_function: 'cycle_an_outlet', source: 'cycle_an_outlet("five",1)' }],
      [{ user_function: 'cycle_an_outlet', source: 'cycle_an_outlet(1,2,3)' }],
      [{ user_function: 'cycle_an_outlet', source: 'flash_a_light(1)' }],
      [{ user_function: 'cycle_an_outlet', source: 'cycle_an_outlet(1' }],
      [{ user_function: 'flash_a_light' }, { user_function: 'nope' }],
    ];
    for (const items of cases) {
      const answer = await start(items);
      expect(answer.status, JSON.stringify(items)).toBe(409);
      expect(json(answer)).toMatchObject({ error: expect.stringMatching(/unknown_function|bad_arguments/) });
    }
    expect(await threads()).toEqual({});
  });

  it('answers 400 for a body that is not a list of start items', async () => {
    expect((await start({ user_function: 'flash_a_light' })).status).toBe(400);
    expect((await start([])).status).toBe(400);
    expect((await stop('all')).status).toBe(400);
  });

  it('stops a long-running thread by id, and all threads with ["all"]', async () => {
    const first = json(
      await start([{ user_function: 'blink_an_outlet', source: 'blink_an_outlet(7, 0.1)' }]),
    ) as string;
    const second = json(
      await start([{ user_function: 'blink_an_outlet', source: 'blink_an_outlet(8, 0.1)' }]),
    ) as string;
    expect(Object.keys(await threads()).sort()).toEqual([first, second].sort());
    const stopped = await stop([first]);
    expect(stopped.status).toBe(200);
    expect(json(stopped)).toEqual([first]);
    expect(Object.keys(await threads())).toEqual([second]);
    // The stopped blinker no longer changes its outlet.
    const frozen = emu.device.outlet(6).transientState;
    await new Promise((r) => setTimeout(r, 400));
    expect(emu.device.outlet(6).transientState).toBe(frozen);
    expect(json(await stop(['all']))).toEqual([second]);
    expect(await threads()).toEqual({});
  });

  it('requires X-CSRF like every write', async () => {
    const answer = await curl(`${api}/script/start/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      data: '[{"user_function":"flash_a_light"}]',
    });
    expect(answer.status).toBe(403);
  });
});
