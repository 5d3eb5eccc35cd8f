/**
 * Arrival stamps on the monotonic clock for in-process emulators. The emulator's own request log stamps
 * arrivals with Date.now() (whole milliseconds, wall clock), too coarse for a 10 ms spread, so this wraps
 * the emulator's statistics recorder, whose `begin()` runs synchronously when the HTTP server hands it a
 * parsed request, and records performance.now() there. The emulator itself is unchanged.
 */
import type { RunningEmulator } from '../../src-main/emulator/index';
import { now } from './numbers';

export interface Arrival {
  /** performance.now() in this process when the request reached the emulator's handler. */
  at: number;
  method: string;
  path: string;
  /** Which emulator (index in the list given to `recordArrivals`). */
  emulator: number;
}

interface Recorder {
  begin(method: string, path: string): (status: number) => void;
}

/** Start recording; returns the shared list and a function that restores the emulators. */
export function recordArrivals(emulators: readonly RunningEmulator[]): {
  arrivals: Arrival[];
  restore(): void;
} {
  const arrivals: Arrival[] = [];
  const restores = emulators.map((emulator, index) => {
    const recorder = emulator.device.stats as unknown as Recorder;
    if (typeof recorder.begin !== 'function') {
      throw new Error('The emulator statistics no longer expose begin(); update test/bench/arrivals.ts.');
    }
    const original = recorder.begin;
    recorder.begin = function (method: string, path: string) {
      arrivals.push({ at: now(), method, path, emulator: index });
      return original.call(this, method, path);
    };
    return () => {
      recorder.begin = original;
    };
  });
  return { arrivals, restore: () => restores.forEach((restore) => restore()) };
}
