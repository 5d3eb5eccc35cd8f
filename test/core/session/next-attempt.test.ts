import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TIMING, nextAttemptAt } from '../../../src-main/core/session/poll-policy';
import { addController, cleanUp, emulator, newCore, until } from '../harness';
import { FakeClock } from '../fake-clock';
import { planned } from '../poll-steps';

afterEach(cleanUp);

const LOADED = { timeout: 15_000, interval: 10 };

describe('the next attempt after a failure (issue 16: "retrying in N s")', () => {
  it('is the back-off delay after now; none while paused or stopped', () => {
    const base = { pending: false, intervalMs: 1000 };
    expect(nextAttemptAt({ ...base, phase: 'connect', failures: 3 }, DEFAULT_TIMING, 50_000)).toBe(54_000);
    expect(nextAttemptAt({ ...base, phase: 'connect', failures: 12 }, DEFAULT_TIMING, 0)).toBe(60_000);
    expect(nextAttemptAt({ ...base, phase: 'paused', failures: 1 }, DEFAULT_TIMING, 0)).toBeNull();
    expect(nextAttemptAt({ ...base, phase: 'stopped', failures: 1 }, DEFAULT_TIMING, 0)).toBeNull();
  });

  it('a real session publishes when it tries again while offline, and forgets it once back', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 1000 });
    const summary = await addController(h, emu);
    await vi.waitFor(() => expect(clock.nextIn()).toBe(1000), LOADED);
    expect(h.state(summary.id)?.nextAttemptAt ?? null).toBeNull();
    await emu.device.goOffline();

    for (let i = 0; i < 3; i++) {
      await clock.advance(clock.nextIn()!);
      const wait = await planned(clock);
      const state = await until(h, summary.id, (s) => s.status === 'offline');
      // The published time is the poll the session planned: now plus the wait it scheduled.
      expect(state.nextAttemptAt).toBe(clock.now() + wait);
    }
    expect(h.state(summary.id)?.nextAttemptAt).toBe(clock.now() + 4000);

    await emu.device.comeBack();
    await clock.advance(clock.nextIn()!);
    const back = await until(h, summary.id, (s) => s.status === 'online');
    expect(back.nextAttemptAt).toBeNull();
  });
});
