/**
 * What a poll's outlets mean for the pending changes and the activity log: which changes the controller
 * confirmed, which failed or ran out of time, what changed outside Plugboard. Pure apart from the
 * pending map it settles.
 */
import type { ControllerSummary } from '../../../src-preload/model';
import type { Outlet } from '../../dli/types';
import { capitalise, outletLabel } from '../../../src-preload/words';
import { OUTSIDE_ACTOR, type NewActivity } from '../activity/activity-log';
import type { ObservedChange } from './outside-changes';
import { resolvePending, type PendingOutlet } from './pending';

/** An activity entry for a change the controller accepted but did not carry out in time. */
export function unconfirmedEntry(
  summary: ControllerSummary,
  number: number,
  name: string | undefined,
  waiting: PendingOutlet,
  reason: string,
): NewActivity {
  return {
    controllerId: summary.id,
    controllerName: summary.name,
    outlet: number,
    action: `${waiting.action} (not confirmed)`,
    actor: waiting.actor,
    result: 'error',
    error: {
      code: 'TIMEOUT',
      message: `${capitalise(outletLabel(number, name))} on ${summary.name} was not confirmed: ${reason}. Check the outlet on the controller.`,
    },
  };
}

export function observedEntry(summary: ControllerSummary, change: ObservedChange): NewActivity {
  return {
    controllerId: summary.id,
    controllerName: summary.name,
    outlet: change.outlet,
    action: change.action,
    actor: OUTSIDE_ACTOR,
    result: 'observed',
    error: null,
  };
}

/** A change whose answer never came, now confirmed by a poll: recorded only now, as done. */
function confirmedEntry(summary: ControllerSummary, number: number, waiting: PendingOutlet): NewActivity {
  return {
    controllerId: summary.id,
    controllerName: summary.name,
    outlet: number,
    action: waiting.action,
    actor: waiting.actor,
    result: 'ok',
    error: null,
  };
}

/**
 * Settle pending changes against a poll that started at `startedAt`; returns what to record: the
 * failures, and the outcome of changes whose answer never came (nothing was recorded for them yet).
 */
export function settlePending(
  pending: Map<number, PendingOutlet>,
  outlets: readonly Outlet[],
  startedAt: number,
  now: number,
  summary: ControllerSummary,
): NewActivity[] {
  const entries: NewActivity[] = [];
  for (const outlet of outlets) {
    const waiting = pending.get(outlet.number);
    if (!waiting) continue;
    const resolution = resolvePending(waiting, outlet, startedAt, now);
    if (resolution.kind === 'waiting') {
      if (resolution.sawOff) waiting.sawOff = true;
      continue;
    }
    pending.delete(outlet.number);
    if (resolution.kind === 'failed') {
      entries.push(unconfirmedEntry(summary, outlet.number, outlet.name, waiting, resolution.reason));
    } else if (waiting.unanswered) {
      entries.push(confirmedEntry(summary, outlet.number, waiting));
    }
  }
  return entries;
}

/**
 * Drop pending changes past their deadline (even when polls fail); returns the failures to record. A
 * request still on its way is left alone: its own deadline ends it.
 */
export function expirePending(
  pending: Map<number, PendingOutlet>,
  now: number,
  outlets: readonly Outlet[] | null,
  online: boolean,
  summary: ControllerSummary,
): NewActivity[] {
  const failures: NewActivity[] = [];
  for (const [number, waiting] of pending) {
    if (waiting.answeredAt === null || now <= waiting.deadline) continue;
    pending.delete(number);
    const reason = online
      ? `it did not reach the state asked for within ${Math.round((now - waiting.since) / 1000)} s`
      : `${summary.name} stopped answering before it could be confirmed`;
    const name = outlets?.find((o) => o.number === number)?.name;
    failures.push(unconfirmedEntry(summary, number, name, waiting, reason));
  }
  return failures;
}
