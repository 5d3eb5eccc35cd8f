import { createSubscriber } from 'svelte/reactivity';

/**
 * The current time as a reactive value for countdowns and "updated 5 s ago". It ticks only while
 * something on screen reads it (site-kit's createSubscriber pattern), so an idle window costs nothing.
 */
export class Clock {
  readonly #subscribe: () => void;

  constructor(intervalMs = 250) {
    this.#subscribe = createSubscriber((update) => {
      const timer = setInterval(update, intervalMs);
      return () => clearInterval(timer);
    });
  }

  /** Epoch ms; reading it inside an effect or template keeps the clock ticking. */
  get now(): number {
    this.#subscribe();
    return Date.now();
  }
}

/** One clock for the whole window. */
export const clock = new Clock();
