/**
 * Work the Core has promised to finish even if it is told to stop: a delayed cycle's switch back on, since
 * a shutdown must never leave an outlet off that a command in progress meant to turn back on.
 * Each operation says by when it will be done; `finish` waits for them, but never past the latest of
 * those times, so a stop is bounded by the longest delay plus one request's deadline. A stop that cannot
 * wait that long (a service's grace period ended) calls `hurry`: every wait ends at once, so what it was
 * waiting to do (switch the outlet back on) happens now, the off-time cut short rather than the outlet
 * left off.
 */
import type { Clock } from '../kernel/clock';
import type { Logger } from '../../shared/logging';

interface Tracked {
  done: Promise<unknown>;
  /** Epoch ms by which it should have ended (its wait plus a request deadline). */
  endsBy: number;
  what: string;
}

export class Operations {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #running = new Set<Tracked>();
  /** Ends the waits under way; null once `hurry` was called (every later wait ends at once). */
  #wakers: Set<() => void> | null = new Set();

  constructor(clock: Clock, log: Logger) {
    this.#clock = clock;
    this.#log = log;
  }

  /** How many are still running. */
  get size(): number {
    return this.#running.size;
  }

  /** Keep `work` until it settles; `endsBy` bounds how long a stop waits for it. */
  track<T>(what: string, endsBy: number, work: () => Promise<T>): Promise<T> {
    const done = work();
    const entry: Tracked = { done, endsBy, what };
    this.#running.add(entry);
    void done.then(
      () => this.#running.delete(entry),
      () => this.#running.delete(entry),
    );
    return done;
  }

  /** Wait `ms` on the Core's clock, or until `hurry` is called. */
  wait(ms: number): Promise<void> {
    const wakers = this.#wakers;
    if (wakers === null) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.#clock.clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = this.#clock.setTimeout(wake, ms);
      wakers.add(wake);
    });
  }

  /** End every wait now and every later one at once (a stop that cannot wait any longer). */
  hurry(): void {
    const wakers = this.#wakers;
    if (wakers === null) return;
    this.#wakers = null;
    if (this.#running.size > 0)
      this.#log(`stopping now: ${[...this.#running].map((e) => e.what).join('; ')} without waiting the rest`);
    for (const wake of [...wakers]) wake();
  }

  /** Resolves when every operation has settled, or at the latest one's `endsBy` (logging what was left). */
  async finish(): Promise<void> {
    if (this.#running.size === 0) return;
    const entries = [...this.#running];
    const latest = Math.max(...entries.map((e) => e.endsBy));
    let timer: ReturnType<Clock['setTimeout']> | null = null;
    const bound = new Promise<'bound'>((resolve) => {
      timer = this.#clock.setTimeout(() => resolve('bound'), Math.max(0, latest - this.#clock.now()));
    });
    const all = Promise.allSettled(entries.map((e) => e.done)).then(() => 'done' as const);
    const outcome = await Promise.race([all, bound]);
    if (timer) this.#clock.clearTimeout(timer);
    if (outcome === 'bound') {
      const left = [...this.#running].map((e) => e.what).join('; ');
      this.#log(`stopping with unfinished operations (their time ran out): ${left}`);
    }
  }
}
