/**
 * The one owner of a controller's pending changes: what an outlet action marks when its request goes
 * out, what the controller's answer (or its missing answer) does to them, and what a poll settles or a
 * deadline expires. The rules for one change are in pending.ts; the activity entries in session-outlets.ts.
 */
import type { Actor } from '../../../src-preload/model';
import type { ControllerSummary } from '../../../src-preload/model';
import type { Outlet } from '../../dli/types';
import type { NewActivity } from '../activity/activity-log';
import { markAnswered, pendingDeadline, type PendingOutlet } from './pending';
import { expirePending, settlePending } from './session-outlets';

/** What an outlet action asks for, to be marked pending while its request is on the wire. */
export interface PendingRequest {
  kind: PendingOutlet['kind'];
  /** How the activity log words it, per target state. */
  action: (target: boolean) => string;
  actor: Actor;
  /** Target per outlet. */
  targets: Map<number, boolean>;
}

/** The changes one request marked; only these are touched by its answer. */
export type PendingMarks = ReadonlyMap<number, PendingOutlet>;

/** What the pending changes need to know about the controller, read when needed. */
export interface PendingFacts {
  relayTiming(): { cycleDelay: number | null; sequenceDelay: number | null };
  lastOutlets(): readonly Outlet[] | null;
  slackMs: number;
}

export class PendingChanges {
  readonly #map = new Map<number, PendingOutlet>();
  readonly #facts: PendingFacts;

  constructor(facts: PendingFacts) {
    this.#facts = facts;
  }

  /** By outlet number, for the state the window sees. */
  get byOutlet(): ReadonlyMap<number, PendingOutlet> {
    return this.#map;
  }

  get size(): number {
    return this.#map.size;
  }

  clear(): void {
    this.#map.clear();
  }

  /** Mark the request's outlets pending from `since` (when it was sent). */
  mark(request: PendingRequest, since: number): PendingMarks {
    const switchedOn = [...request.targets.values()].filter(Boolean).length;
    const marks = new Map<number, PendingOutlet>();
    for (const [number, target] of request.targets) {
      const cycleDelayS = request.kind === 'cycle' ? this.#cycleDelayOf(number) : null;
      const pending: PendingOutlet = {
        kind: request.kind,
        target,
        since,
        answeredAt: null,
        deadline: pendingDeadline(request.kind, since, {
          sequenceDelayS: this.#facts.relayTiming().sequenceDelay,
          cycleDelayS,
          switchedOn: target ? switchedOn : 0,
          slackMs: this.#facts.slackMs,
        }),
        cycleEndsAt: null,
        sawOff: false,
        actor: request.actor,
        action: request.action(target),
      };
      this.#map.set(number, pending);
      marks.set(number, pending);
    }
    return marks;
  }

  /** The controller answered: failed outlets stop being pending, the others wait for confirmation. */
  answered(marks: PendingMarks, failed: readonly number[], now: number): void {
    for (const [number, pending] of marks) {
      if (this.#map.get(number) !== pending) continue;
      if (failed.includes(number)) {
        this.#map.delete(number);
        continue;
      }
      markAnswered(pending, now);
      if (pending.kind === 'cycle') {
        const delay = this.#cycleDelayOf(number);
        pending.cycleEndsAt = delay === null ? null : now + delay * 1000;
      }
    }
  }

  /**
   * The request went out but its answer never came: the controller may have carried it out. The outlets
   * stay pending until a poll that starts from now shows whether it happened; returns those outlets.
   */
  unanswered(marks: PendingMarks, now: number): number[] {
    const waiting: number[] = [];
    for (const [number, pending] of marks) {
      if (this.#map.get(number) !== pending) continue;
      markAnswered(pending, now, true);
      waiting.push(number);
    }
    return waiting;
  }

  /** The request failed: its outlets stop being pending (unless a later request marked them again). */
  unmark(marks: PendingMarks): void {
    for (const [number, pending] of marks) if (this.#map.get(number) === pending) this.#map.delete(number);
  }

  /** Settle against a poll that started at `startedAt`; returns what to record (see settlePending). */
  settle(
    outlets: readonly Outlet[],
    startedAt: number,
    now: number,
    summary: ControllerSummary,
  ): NewActivity[] {
    return settlePending(this.#map, outlets, startedAt, now, summary);
  }

  /** Drop changes past their deadline; returns the failures to record (see expirePending). */
  expire(now: number, online: boolean, summary: ControllerSummary): NewActivity[] {
    return expirePending(this.#map, now, this.#facts.lastOutlets(), online, summary);
  }

  #cycleDelayOf(number: number): number | null {
    const own = this.#facts.lastOutlets()?.find((o) => o.number === number)?.cycleDelay;
    return own ?? this.#facts.relayTiming().cycleDelay;
  }
}
