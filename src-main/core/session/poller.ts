import type { Clock, TimerHandle } from '../kernel/clock';

/**
 * Runs one controller's polls, one at a time, on a schedule a policy decides after each poll. Never two
 * polls at once: a request to poll while one runs makes the next one follow it.
 */
export class Poller {
  readonly #clock: Clock;
  readonly #tick: () => Promise<void>;
  readonly #delay: () => number | null;
  readonly #onError: (error: unknown) => void;
  #timer: TimerHandle | null = null;
  #dueAt: number | null = null;
  #running = false;
  /** A poke that came during a poll: poll again this soon after it. */
  #again: number | null = null;
  #lastEnd: number | null = null;
  #stopped = false;
  /** Callers of `pollNow` waiting for a poll that has not started yet / that is running. */
  #waitingForNext: (() => void)[] = [];
  #waitingForCurrent: (() => void)[] = [];

  /**
   * `tick` is one poll (it should not throw; a throw is reported to `onError`); `delay` is asked after
   * each poll for the wait until the next one (null: none until poked).
   */
  constructor(
    clock: Clock,
    tick: () => Promise<void>,
    delay: () => number | null,
    onError: (error: unknown) => void,
  ) {
    this.#clock = clock;
    this.#tick = tick;
    this.#delay = delay;
    this.#onError = onError;
  }

  /** A poll is running now. */
  get running(): boolean {
    return this.#running;
  }

  /** Epoch ms of the next planned poll, or null. */
  get dueAt(): number | null {
    return this.#dueAt;
  }

  start(delayMs = 0): void {
    if (this.#stopped) return;
    this.#schedule(delayMs);
  }

  /** Poll within `delayMs`: sooner than planned, never later. During a poll, the next follows it. */
  poke(delayMs = 0): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = Math.min(this.#again ?? Number.POSITIVE_INFINITY, delayMs);
      return;
    }
    if (this.#dueAt !== null && this.#dueAt <= this.#clock.now() + delayMs) return;
    this.#schedule(delayMs);
  }

  /** Poll as soon as possible; resolves when that poll is over. */
  pollNow(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#waitingForNext.push(resolve));
    this.poke(0);
    return done;
  }

  /** The policy changed (interval, visibility, pause lifted): plan the next poll from the last one. */
  replan(): void {
    if (this.#stopped || this.#running) return;
    const delay = this.#delay();
    if (delay === null) {
      this.#cancel();
      return;
    }
    const now = this.#clock.now();
    const due = (this.#lastEnd ?? now) + delay;
    this.#schedule(Math.max(0, due - now));
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel();
    for (const wake of [...this.#waitingForNext.splice(0), ...this.#waitingForCurrent.splice(0)]) wake();
  }

  #schedule(delayMs: number): void {
    this.#cancel();
    const wait = Math.max(0, delayMs);
    this.#dueAt = this.#clock.now() + wait;
    const handle = this.#clock.setTimeout(() => void this.#run(), wait);
    // A poll schedule alone must not keep a process (a CLI, a test) alive.
    handle.unref?.();
    this.#timer = handle;
  }

  #cancel(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#dueAt = null;
  }

  async #run(): Promise<void> {
    this.#timer = null;
    this.#dueAt = null;
    if (this.#stopped || this.#running) return;
    this.#running = true;
    this.#waitingForCurrent = this.#waitingForNext;
    this.#waitingForNext = [];
    try {
      await this.#tick();
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#running = false;
      this.#lastEnd = this.#clock.now();
      for (const wake of this.#waitingForCurrent.splice(0)) wake();
      if (!this.#stopped) {
        const delay = this.#delay();
        const again = this.#again;
        this.#again = null;
        const next = again === null ? delay : delay === null ? again : Math.min(again, delay);
        if (next !== null) this.#schedule(next);
        else if (this.#waitingForNext.length) this.#schedule(0);
      }
    }
  }
}
