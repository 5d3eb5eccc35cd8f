import { describe, expect, it } from 'vitest';
import { Poller } from '../../../src-main/core/session/poller';
import {
  DEFAULT_TIMING,
  nextPollDelay,
  pollPlan,
  type PollPhase,
} from '../../../src-main/core/session/poll-policy';
import { FakeClock, settle } from '../fake-clock';

/**
 * The poll schedule, driven one interval at a time by a fake clock (GitButler's updater.test.ts style):
 * a poller whose policy is the real nextPollDelay, and polls that succeed or fail as the test says.
 */
function scheduled(options: { interval?: number } = {}) {
  const clock = new FakeClock();
  const situation = {
    phase: 'steady' as PollPhase,
    failures: 0,
    pending: false,
    intervalMs: options.interval ?? 3000,
  };
  const polls: number[] = [];
  let fail = false;
  let release: (() => void) | null = null;
  let hold = false;
  const start = clock.now();
  const poller = new Poller(
    clock,
    async () => {
      polls.push(clock.now() - start);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (fail) situation.failures++;
      else situation.failures = 0;
    },
    () => nextPollDelay(situation, DEFAULT_TIMING),
    (error) => {
      throw error;
    },
  );
  return {
    clock,
    situation,
    polls,
    poller,
    setFailing: (value: boolean) => (fail = value),
    hold: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

describe('the poll schedule', () => {
  it('polls at once, then every interval, one interval at a time', async () => {
    const s = scheduled({ interval: 3000 });
    s.poller.start(0);
    await s.clock.advance(0);
    expect(s.polls).toEqual([0]);
    await s.clock.advance(2999);
    expect(s.polls).toEqual([0]);
    await s.clock.advance(1);
    expect(s.polls).toEqual([0, 3000]);
    await s.clock.advance(3000);
    await s.clock.advance(3000);
    expect(s.polls).toEqual([0, 3000, 6000, 9000]);
    s.poller.stop();
  });

  it('backs off exponentially while polls fail, capped at 60 s, and returns to the interval on success', async () => {
    const s = scheduled({ interval: 3000 });
    s.setFailing(true);
    s.poller.start(0);
    await s.clock.advance(0);
    const gaps: number[] = [];
    for (let i = 0; i < 7; i++) {
      gaps.push(s.clock.nextIn()!);
      await s.clock.advance(s.clock.nextIn()!);
    }
    expect(gaps).toEqual([3000, 6000, 12_000, 24_000, 48_000, 60_000, 60_000]);
    s.setFailing(false);
    await s.clock.advance(s.clock.nextIn()!);
    expect(s.clock.nextIn()).toBe(3000);
    s.poller.stop();
  });

  it('polls fast while a change is pending, then goes back to the interval', async () => {
    const s = scheduled({ interval: 3000 });
    s.poller.start(0);
    await s.clock.advance(0);
    s.situation.pending = true;
    s.poller.poke(0);
    await s.clock.advance(0);
    expect(s.clock.nextIn()).toBe(DEFAULT_TIMING.fastMs);
    await s.clock.advance(DEFAULT_TIMING.fastMs);
    await s.clock.advance(DEFAULT_TIMING.fastMs);
    expect(s.polls).toEqual([0, 0, 250, 500]);
    s.situation.pending = false;
    await s.clock.advance(DEFAULT_TIMING.fastMs);
    expect(s.clock.nextIn()).toBe(3000);
    s.poller.stop();
  });

  it('applies a new interval at once, counted from the last poll', async () => {
    const s = scheduled({ interval: 10_000 });
    s.poller.start(0);
    await s.clock.advance(4000);
    s.situation.intervalMs = 5000;
    s.poller.replan();
    expect(s.clock.nextIn()).toBe(1000);
    s.situation.intervalMs = 2000;
    s.poller.replan();
    await settle();
    // Already overdue: poll now.
    expect(s.clock.nextIn()).toBe(0);
    s.poller.stop();
  });

  it('stays quiet while paused until poked, and never runs two polls at once', async () => {
    const s = scheduled({ interval: 3000 });
    s.situation.phase = 'paused';
    s.poller.start(0);
    await s.clock.advance(0);
    expect(s.clock.nextIn()).toBeNull();
    await s.clock.advance(600_000);
    expect(s.polls).toEqual([0]);

    s.situation.phase = 'steady';
    s.hold();
    s.poller.poke(0);
    await s.clock.advance(0);
    expect(s.poller.running).toBe(true);
    s.poller.poke(0);
    s.poller.poke(0);
    await s.clock.advance(5000);
    expect(s.polls).toHaveLength(2);
    s.release();
    await settle();
    // The pokes during the poll became exactly one poll right after it.
    await s.clock.advance(0);
    expect(s.polls).toHaveLength(3);
    s.poller.stop();
  });

  it('pollNow resolves once a poll that started after the request is over; stop ends everything', async () => {
    const s = scheduled({ interval: 3000 });
    s.poller.start(3000);
    let done = false;
    const now = s.poller.pollNow().then(() => (done = true));
    await s.clock.advance(0);
    await now;
    expect(done).toBe(true);
    expect(s.polls).toEqual([0]);
    s.poller.stop();
    expect(s.clock.pendingTimers).toBe(0);
    await s.clock.advance(60_000);
    expect(s.polls).toEqual([0]);
  });
});

describe('nextPollDelay', () => {
  const base = { phase: 'steady' as PollPhase, failures: 0, pending: false, intervalMs: 1000 };
  it('backs off from the interval and never below it, even for long intervals', () => {
    expect(nextPollDelay({ ...base, failures: 1 }, DEFAULT_TIMING)).toBe(1000);
    expect(nextPollDelay({ ...base, failures: 7 }, DEFAULT_TIMING)).toBe(60_000);
    expect(nextPollDelay({ ...base, failures: 40 }, DEFAULT_TIMING)).toBe(60_000);
    expect(nextPollDelay({ ...base, intervalMs: 120_000, failures: 3 }, DEFAULT_TIMING)).toBe(120_000);
  });
  it('probes a rebooting controller quickly, backing off to 5 s', () => {
    const delays = [0, 1, 2, 3, 4, 5].map((failures) =>
      nextPollDelay({ ...base, phase: 'rebooting', failures }, DEFAULT_TIMING),
    );
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 5000]);
  });
  it('plans nothing for paused or stopped sessions', () => {
    expect(nextPollDelay({ ...base, phase: 'paused' }, DEFAULT_TIMING)).toBeNull();
    expect(nextPollDelay({ ...base, phase: 'stopped' }, DEFAULT_TIMING)).toBeNull();
  });
});

describe('pollPlan', () => {
  const input = {
    hasMeters: true,
    isAdmin: true,
    visible: true,
    watchedMeters: false,
    confirming: false,
    lastSlowRead: null,
    threadsRunning: false,
    now: 100_000,
  };
  const plan = (meters: boolean, slow: boolean, threads = false) => ({ meters, slow, threads });
  it('reads meters and the slow parts when visible and due', () => {
    expect(pollPlan(input, DEFAULT_TIMING)).toEqual(plan(true, true));
    expect(pollPlan({ ...input, lastSlowRead: 90_000 }, DEFAULT_TIMING)).toEqual(plan(true, false));
    expect(pollPlan({ ...input, lastSlowRead: 70_000 }, DEFAULT_TIMING)).toEqual(plan(true, true));
  });
  it('reads only the outlets while hidden, unless a meter threshold watches the controller', () => {
    expect(pollPlan({ ...input, visible: false }, DEFAULT_TIMING)).toEqual(plan(false, false));
    expect(pollPlan({ ...input, visible: false, watchedMeters: true }, DEFAULT_TIMING)).toEqual(
      plan(true, false),
    );
  });
  it('confirms pending changes with the outlets alone; never the slow parts for non-administrators', () => {
    expect(pollPlan({ ...input, confirming: true }, DEFAULT_TIMING)).toEqual(plan(false, false));
    expect(pollPlan({ ...input, isAdmin: false }, DEFAULT_TIMING)).toEqual(plan(true, false));
    expect(pollPlan({ ...input, hasMeters: false }, DEFAULT_TIMING)).toEqual(plan(false, true));
  });
  it('follows running threads between slow reads, only while an administrator is watching', () => {
    const running = { ...input, lastSlowRead: 90_000, threadsRunning: true };
    expect(pollPlan(running, DEFAULT_TIMING)).toEqual(plan(true, false, true));
    expect(pollPlan({ ...running, lastSlowRead: 70_000 }, DEFAULT_TIMING)).toEqual(plan(true, true, false));
    expect(pollPlan({ ...running, visible: false }, DEFAULT_TIMING)).toEqual(plan(false, false, false));
    expect(pollPlan({ ...running, isAdmin: false }, DEFAULT_TIMING)).toEqual(plan(true, false, false));
    expect(pollPlan({ ...running, confirming: true }, DEFAULT_TIMING)).toEqual(plan(false, false, false));
  });
});
