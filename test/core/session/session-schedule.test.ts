/**
 * A controller's poll schedule on the Core's fake clock while the HTTP underneath runs for real: back-off
 * while offline, fast polls until the relay confirms.
 *
 * @real-unit: rerun against the emulator's real-unit profile for fast polls until the unit's relay confirms
 * an action (slow outlet reads on real units).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addController, cleanUp, emulator, newCore, until } from '../harness';
import { FakeClock } from '../fake-clock';

afterEach(cleanUp);

/** Real HTTP runs underneath: on a busy machine it may take more than vi.waitFor's default second. */
const LOADED = { timeout: 15_000, interval: 10 };

/**
 * A real session against a real emulator, with the schedule on a fake clock: time moves only when the
 * test advances it, one planned poll at a time, while the HTTP underneath runs for real.
 */
describe('the schedule of a real session', () => {
  it('backs off while the controller is offline and returns to the interval once it is back', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 1000 });
    const summary = await addController(h, emu);
    // Wait for the first planned poll (connect reads run in the background first).
    await vi.waitFor(() => expect(clock.nextIn()).toBe(1000), LOADED);
    await emu.device.goOffline();

    /** Let the planned poll run and return the wait the session then plans. */
    const step = async (): Promise<number> => {
      await clock.advance(clock.nextIn()!);
      return vi.waitFor(
        () => {
          const next = clock.nextIn();
          if (next === null) throw new Error('the poll is still running');
          return next;
        },
        { timeout: 10_000, interval: 5 },
      );
    };
    const gaps: number[] = [];
    for (let i = 0; i < 8; i++) gaps.push(await step());
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(h.state(summary.id)?.status).toBe('offline');

    await emu.device.comeBack();
    expect(await step()).toBe(1000);
    await until(h, summary.id, (s) => s.status === 'online');
  });

  it('polls outlets fast after an action until the relay confirms, then steadily again', async () => {
    const clock = new FakeClock();
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 3000 });
    const summary = await addController(h, emu);
    await vi.waitFor(() => expect(clock.nextIn()).toBe(3000), LOADED);
    await h.ok('outlets/set', { controllerId: summary.id, outlets: [1], on: true });
    // The answer asks for a poll right away; until it confirms, polls come every 250 ms.
    expect(clock.nextIn()).toBe(0);
    await clock.advance(0);
    await vi.waitFor(() => expect(h.state(summary.id)?.outlets[0]?.pending).toBeNull(), LOADED);
    await vi.waitFor(() => expect(clock.nextIn()).toBe(3000), LOADED);
  });
});
