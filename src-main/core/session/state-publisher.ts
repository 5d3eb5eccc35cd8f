import type { ControllerState } from '../../../src-preload/model';
import { sameJson } from '../kernel/same-json';

const IGNORE_LAST_UPDATE: ReadonlySet<string> = new Set(['lastUpdate']);

/**
 * Pushes a controller's state only when something in it changed (a cheap structural compare), plus a
 * heartbeat: an unchanged state is pushed again once its `lastUpdate` moved on by `heartbeatMs`, so the
 * window's "updated … ago" stays honest without a push on every poll.
 */
export class StatePublisher {
  readonly #build: () => ControllerState;
  readonly #emit: (state: ControllerState) => void;
  readonly #heartbeatMs: number;
  #current: ControllerState;
  #emitted: ControllerState | null = null;
  #queued = false;

  constructor(build: () => ControllerState, emit: (state: ControllerState) => void, heartbeatMs: number) {
    this.#build = build;
    this.#emit = emit;
    this.#heartbeatMs = heartbeatMs;
    this.#current = build();
  }

  /** The latest state (pushed or not). */
  get current(): ControllerState {
    return this.#current;
  }

  /** Rebuild the state and push it if it changed. */
  now(): void {
    const next = this.#build();
    this.#current = next;
    const previous = this.#emitted;
    if (previous && sameJson(previous, next, IGNORE_LAST_UPDATE)) {
      const heartbeatDue =
        next.lastUpdate !== null && (previous.lastUpdate ?? 0) + this.#heartbeatMs <= next.lastUpdate;
      if (!heartbeatDue) return;
    }
    this.#emitted = next;
    this.#emit(next);
  }

  /** Rebuild and push after the current I/O turn: a request just started goes on the wire first. */
  soon(): void {
    if (this.#queued) return;
    this.#queued = true;
    setImmediate(() => {
      this.#queued = false;
      this.now();
    });
  }
}
