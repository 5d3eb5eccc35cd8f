import type { Clock, TimerHandle } from '../../src-main/core/kernel/clock';

/** A clock whose time moves only when the test says so; timers fire in order as time passes. */
export class FakeClock implements Clock {
  #now: number;
  #next = 1;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), callback });
    return { id } as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers.delete((handle as { id: number }).id);
  }

  /** Milliseconds until the next timer, or null when none is set. */
  nextIn(): number | null {
    let soonest: number | null = null;
    for (const timer of this.#timers.values())
      soonest = soonest === null ? timer.at : Math.min(soonest, timer.at);
    return soonest === null ? null : soonest - this.#now;
  }

  /** How many timers fall due exactly `ms` from now (a wait that was just planned). */
  timersOf(ms: number): number {
    return [...this.#timers.values()].filter((timer) => timer.at - this.#now === ms).length;
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Move time forward by `ms`, firing every timer that falls due (letting promises settle after each). */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | null = null;
      for (const entry of this.#timers)
        if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].callback();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

/** Let queued promise callbacks run (several rounds: chains of awaits). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
