/**
 * Time as a port: the pollers ask this for the time and for timers, so tests can drive the schedule
 * with fake timers one interval at a time, and everything else uses the real clock.
 */
export interface TimerHandle {
  /** Node keeps the process alive for a timer unless told not to. */
  unref?(): unknown;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The real clock. Looks the globals up at call time so Vitest's fake timers also apply to it. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
