/**
 * Driving a real Core's polls with the fake clock: time moves only when the test says so, while the HTTP
 * underneath runs for real. Replaces "wait N seconds and see" with "run N planned polls and see", which
 * checks the same thing on an idle or a loaded machine.
 */
import { vi } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator';
import type { FakeClock } from './fake-clock';

/** Requests a controller answered for its outlets: one per poll (also counts connect reads). */
export function outletReads(emu: RunningEmulator): number {
  return emu.device.stats.log.filter((entry) => entry.path === '/restapi/relay/outlets/').length;
}

/** Wait (real time) until a poll is planned again: whatever ran before (connect reads, a poll) is over. */
export async function planned(clock: FakeClock, timeout = 15_000): Promise<number> {
  return vi.waitFor(
    () => {
      const next = clock.nextIn();
      if (next === null) throw new Error('no poll planned yet: one is still running');
      return next;
    },
    { timeout, interval: 5 },
  );
}

/** Run the next planned poll(s) and wait until they are over (the next one planned). */
export async function nextPoll(clock: FakeClock): Promise<void> {
  await clock.advance(await planned(clock));
  await planned(clock);
}

/** Run `count` planned polls, one after another. */
export async function polls(clock: FakeClock, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await nextPoll(clock);
}
