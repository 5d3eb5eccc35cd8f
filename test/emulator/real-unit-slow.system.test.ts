import { afterEach, describe, expect, it, vi } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { parseCli } from '../../src-main/emulator/cli';
import { resolveOptions } from '../../src-main/emulator/options';
import { type CurlAnswer, type CurlOptions, curl, json } from './clients';

// Slow outlet answers. Real units take about 5 s to answer the full outlet list, `GET relay/outlets/`
// (reference §13, ConsolePi): the real-unit profile slows that answer only (slowOutletListMs), and
// slowOutletsMs stands for a unit that is slow on every outlet answer. Which answer comes first is told
// by the order of events, never by the clock: a slow answer here waits far longer than the test, and
// closing the emulator cuts it.

const csrf = { 'X-CSRF': 'x' };
/** Longer than any test here: an answer held this long has not come by the time the test looks. */
const HELD_MS = 60_000;
let emu: RunningEmulator | null = null;

afterEach(async () => {
  await emu?.close();
  emu = null;
});

/** A request sent now whose answer is awaited later; `answered` says whether it has come. */
function send(
  url: string,
  options: CurlOptions = {},
): { answer: Promise<CurlAnswer>; answered: () => boolean } {
  let answered = false;
  // curl's own limit well beyond the test: only an answer (or the emulator closing) ends it.
  const answer = curl(url, { maxTime: 300, ...options }).then((result) => {
    answered = true;
    return result;
  });
  return { answer, answered: () => answered };
}

/** Until the request just sent (after its digest challenge) is in the emulator, being answered. */
async function heldInside(unit: RunningEmulator, requestsBefore: number): Promise<void> {
  await vi.waitFor(
    () => {
      // The 401 and the request with credentials have both arrived; only the latter is still open.
      expect(unit.device.stats.requests).toBe(requestsBefore + 2);
      expect(unit.device.stats.inFlight).toBe(1);
    },
    { timeout: 15_000, interval: 10 },
  );
}

describe('the real-unit profile: only the full outlet list is slow', () => {
  it('takes 5 s for the list and nothing more for the rest, in the profile and on the command line', async () => {
    emu = await startEmulator({ realUnit: true });
    expect(emu.device.slowOutletListMs).toBe(5000);
    expect(emu.device.slowOutletsMs).toBe(0);
    expect(resolveOptions({})).toMatchObject({ slowOutletListMs: 0, slowOutletsMs: 0 });
    expect(resolveOptions({ realUnit: true, slowOutletListMs: 300, slowOutletsMs: 20 })).toMatchObject({
      slowOutletListMs: 300,
      slowOutletsMs: 20,
    });
    expect(() => (emu!.device.slowOutletListMs = -1)).toThrow(RangeError);
  });

  it('answers a write, a single-outlet read and a matrix read while a full-list read is still held', async () => {
    emu = await startEmulator({ realUnit: true, sequenceDelay: 0, initialStates: Array(8).fill(false) });
    const api = `${emu.url}/restapi`;
    emu.device.slowOutletListMs = HELD_MS;
    const before = emu.device.stats.requests;
    const list = send(`${api}/relay/outlets/`);
    await heldInside(emu, before);

    const write = await curl(`${api}/relay/outlets/1/state/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=true',
    });
    expect(write.status).toBe(204);
    expect(emu.device.outlet(1).state).toBe(true);
    const one = await curl(`${api}/relay/outlets/1/`);
    expect(one.status).toBe(200);
    expect(json(one)).toMatchObject({ state: true, name: 'Outlet 2' });
    const states = await curl(`${api}/relay/outlets/all;/state/`);
    expect(states.status).toBe(207);
    expect(json(states)).toEqual([false, true, false, false, false, false, false, false]);
    const cycle = await curl(`${api}/relay/outlets/0/cycle/`, { method: 'POST', headers: csrf });
    expect(cycle.status).toBe(200); // outlet 1 is off: nothing to cycle
    expect(list.answered()).toBe(false);

    // The list was never answered: closing the controller cuts it.
    await emu.close();
    expect((await list.answer).exitCode).not.toBe(0); // curl: no answer
  });

  it('still answers the full list, with every field, once its delay is over', async () => {
    emu = await startEmulator({ realUnit: true, slowOutletListMs: 20 });
    const list = await curl(`${emu.url}/restapi/relay/outlets/`);
    expect(list.status).toBe(200);
    expect(json(list)).toHaveLength(8);
    expect((json(list) as object[])[0]).toEqual({
      critical: false,
      transient_state: true,
      state: true,
      physical_state: true,
      name: 'Outlet 1',
      locked: false,
      cycle_delay: null,
    });
  });
});

describe('a unit slow on every outlet answer (slowOutletsMs)', () => {
  it('carries a write out at once and holds its answer, while answers elsewhere come', async () => {
    emu = await startEmulator({ slowOutletsMs: HELD_MS, initialStates: Array(8).fill(false) });
    const api = `${emu.url}/restapi`;
    const before = emu.device.stats.requests;
    const write = send(`${api}/relay/outlets/2/state/`, { method: 'PUT', headers: csrf, data: 'value=true' });
    await heldInside(emu, before);
    await vi.waitFor(() => expect(emu!.device.outlet(2).state).toBe(true));
    const serial = await curl(`${api}/config/serial/`);
    expect(json(serial)).toBe(emu.device.serial);
    expect(write.answered()).toBe(false);
    await emu.close();
    expect((await write.answer).exitCode).not.toBe(0);
  });
});

describe('the command line', () => {
  it('takes --slow-outlet-list-ms and --slow-outlets-ms, and refuses bad values with exit code 2', () => {
    const both = parseCli(['--slow-outlet-list-ms', '5000', '--slow-outlets-ms', '250']);
    expect(both.ok && both.controllers[0]).toMatchObject({ slowOutletListMs: 5000, slowOutletsMs: 250 });
    const profile = parseCli(['--real-unit', '--slow-outlets-ms', '100']);
    expect(profile.ok && resolveOptions(profile.controllers[0])).toMatchObject({
      slowOutletListMs: 5000,
      slowOutletsMs: 100,
    });
    for (const option of ['--slow-outlet-list-ms', '--slow-outlets-ms']) {
      const bad = parseCli([option, 'soon']);
      expect(bad).toMatchObject({ ok: false, exitCode: 2 });
      if (!bad.ok) expect(bad.output).toContain(option);
    }
  });
});
