/**
 * The Core against the emulator's real-unit profile, where only the full outlet list is slow (real units
 * take about 5 s to answer `GET relay/outlets/`; writes and single-outlet reads are not known to be
 * slow): a switch is answered while another client's read of the full list is still held, so a client
 * whose request budget is shorter than the list's 5 s (3 s and 5 s are common) can still switch. Which
 * answer comes first is told by the order of events, never by the clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutletActionResult } from '../../../src-preload/model';
import { curl } from '../../emulator/clients';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

/** Real HTTP runs underneath: on a busy machine it may take more than vi.waitFor's default second. */
const LOADED = { timeout: 15_000, interval: 10 };
/** Longer than the test: a list held this long has not been answered by the time the test looks. */
const HELD_MS = 60_000;

describe('switching a unit whose full outlet list is slow', () => {
  it('is answered while a full-list read is still held, and not called unconfirmed', async () => {
    const emu = await emulator({ realUnit: true, initialStates: Array(8).fill(false) });
    // The profile slows the full list (5 s, or the real-unit run's scaled value) and nothing else.
    expect(emu.device.slowOutletListMs).toBeGreaterThan(0);
    expect(emu.device.slowOutletsMs).toBe(0);
    // Connecting reads the list: quick here, so the Core is online at once; its polls wait on a fake clock.
    emu.device.slowOutletListMs = 0;
    const clock = new FakeClock();
    const h = newCore({ clock, visible: false });
    const { id } = await addController(h, emu);
    // The reads after connecting are done, and the first poll (fired here) has read the list: the
    // Core's client knows the outlets, as it does once a unit has been polled.
    const lists = () =>
      emu.device.stats.log.filter((e) => e.path === '/restapi/relay/outlets/' && e.status === 200).length;
    await vi.waitFor(() => expect(clock.nextIn()).not.toBeNull(), LOADED);
    const listedBefore = lists();
    await clock.advance(clock.nextIn()!);
    await vi.waitFor(() => {
      expect(lists()).toBeGreaterThan(listedBefore);
      expect(emu.device.stats.inFlight).toBe(0);
      expect(clock.nextIn()).not.toBeNull();
    }, LOADED);

    // Another client (a dashboard, a script: curl in its own process, since Plugboard's own clients in
    // one process take turns per controller) reads the full list, now held far longer than the test.
    emu.device.slowOutletListMs = HELD_MS;
    const challenged = emu.device.stats.unauthorized;
    let listed = false;
    const list = curl(`${emu.url}/restapi/relay/outlets/`, { maxTime: 300 }).then((answer) => {
      listed = true;
      return answer;
    });
    // Its digest challenge is answered and its read with credentials is in the emulator, held.
    await vi.waitFor(() => {
      expect(emu.device.stats.unauthorized).toBe(challenged + 1);
      expect(emu.device.stats.inFlight).toBe(1);
    }, LOADED);

    const result = await h.call<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [4],
      on: true,
    });
    expect(result).toEqual({ ok: true, value: { requested: [4], failed: [] } });
    expect(emu.device.outlet(3).state).toBe(true);
    expect(listed).toBe(false);
    expect(emu.device.stats.inFlight).toBe(1);

    // It was never answered: closing the controller cuts it.
    await emu.close();
    expect((await list).exitCode).not.toBe(0);
  });
});
