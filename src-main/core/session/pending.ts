/**
 * Changes Plugboard sent that the controller has not confirmed yet. An outlet looks pending until a poll
 * that started after the controller's answer shows the physical state asked for; cycle off-times and
 * on-sequence delays make that lag. A request whose answer never came (it timed out) is neither done nor
 * failed: it stays pending until a poll shows whether the controller carried it out. Pure: the session
 * holds the map, these functions decide.
 */
import type { Actor, PendingChange } from '../../../src-preload/model';
import type { Outlet } from '../../dli/types';

export interface PendingOutlet {
  kind: PendingChange['kind'];
  /** The physical state asked for (a cycle: on again after the off-time). */
  target: boolean;
  /** Epoch ms when the request was sent. */
  since: number;
  /**
   * Epoch ms when the controller accepted it (or, `unanswered`, when Plugboard stopped waiting for the
   * answer); null while the request is on its way (it cannot run out of time then).
   */
  answeredAt: number | null;
  /**
   * After this, an unconfirmed change is reported as failed: set from `since` when sent, then moved on
   * by the time the answer took, so the expected lag counts from the answer.
   */
  deadline: number;
  /** The answer never came (timeout): whether it happened is for a poll to tell, and to record. */
  unanswered?: boolean;
  /** Cycle: when the off-time ends (for the countdown); null when the delay is unknown. */
  cycleEndsAt: number | null;
  /** Cycle: a poll has seen the relay off. */
  sawOff: boolean;
  actor: Actor;
  /** How the activity log names the action: "on", "off (temporary)", "cycle". */
  action: string;
}

export type Resolution =
  { kind: 'waiting'; sawOff?: boolean } | { kind: 'confirmed' } | { kind: 'failed'; reason: string };

export interface LagFacts {
  /** `relay/sequence_delay` in seconds, null when unknown. */
  sequenceDelayS: number | null;
  /** The outlet's cycle off-time in seconds (its own or the controller's default), null when unknown. */
  cycleDelayS: number | null;
  /** How many outlets this request switches on (each waits its turn in the on-sequence). */
  switchedOn: number;
  slackMs: number;
}

/** Assumed when the controller would not tell: generous, so a slow unit is not reported as failing. */
const ASSUMED_SEQUENCE_DELAY_S = 2;
const ASSUMED_CYCLE_DELAY_S = 10;

/** When an unconfirmed change counts as failed: the expected lag plus slack. */
export function pendingDeadline(kind: PendingChange['kind'], since: number, facts: LagFacts): number {
  const sequence = (facts.sequenceDelayS ?? ASSUMED_SEQUENCE_DELAY_S) * 1000 * Math.max(1, facts.switchedOn);
  const cycle = kind === 'cycle' ? (facts.cycleDelayS ?? ASSUMED_CYCLE_DELAY_S) * 1000 : 0;
  return since + facts.slackMs + sequence + cycle;
}

const onOff = (on: boolean): string => (on ? 'on' : 'off');

/** The controller's answer came (`unanswered`: Plugboard stopped waiting for it) at `now`. */
export function markAnswered(pending: PendingOutlet, now: number, unanswered = false): void {
  if (pending.answeredAt !== null) return;
  pending.answeredAt = now;
  pending.deadline += now - pending.since;
  if (unanswered) {
    pending.unanswered = true;
    // When the off-time began is unknown: only a poll that sees the relay off confirms a cycle.
    pending.cycleEndsAt = null;
  }
}

const NO_ANSWER = 'the controller did not answer the request';

/** Decide a pending change from one poll that started at `pollStartedAt`. */
export function resolvePending(
  pending: PendingOutlet,
  outlet: Outlet,
  pollStartedAt: number,
  now: number,
): Resolution {
  const seconds = Math.round((now - pending.since) / 1000);
  const doing = pending.kind === 'cycle' ? 'come back on' : `switch ${onOff(pending.target)}`;
  const late = (): Resolution => {
    // A request still on its way cannot be late: its own deadline ends it.
    if (pending.answeredAt === null || now <= pending.deadline) return { kind: 'waiting' };
    const reason = pending.unanswered
      ? pending.kind === 'cycle'
        ? `${NO_ANSWER}, and no reading within ${seconds} s showed the outlet off, so whether it cycled is unknown`
        : `${NO_ANSWER}, and it did not ${doing} within ${seconds} s`
      : `it did not ${doing} within ${seconds} s, although the controller accepted the change`;
    return { kind: 'failed', reason };
  };
  if (pending.answeredAt === null) return late();
  if (pending.kind === 'cycle') {
    // A poll that began before the controller answered may have read the relay before the off-time.
    return pollStartedAt < pending.answeredAt ? late() : resolveCycle(pending, outlet, now, late);
  }
  const asked = pending.kind === 'state' ? outlet.state : outlet.transientState;
  // A poll that began before the controller answered may have read the old values: it cannot tell that
  // the change failed. But once it shows the asked field and the relay where the accepted change put
  // them (its read waited behind the switch, one request at a time, or a slow unit read late), the
  // change is done: waiting for the next read would show a confirmed state as pending. An unanswered
  // request waits for a read begun afterwards.
  if (pollStartedAt < pending.answeredAt)
    return !pending.unanswered && asked === pending.target && outlet.physicalState === pending.target
      ? { kind: 'confirmed' }
      : late();
  if (asked !== pending.target) {
    const field = pending.kind === 'state' ? 'state' : 'transient state';
    const reason = pending.unanswered
      ? `${NO_ANSWER}, and it reports the ${field} as ${onOff(asked)}: the change did not happen`
      : `the controller reports its ${field} as ${onOff(asked)}: something else changed it meanwhile`;
    return { kind: 'failed', reason };
  }
  return outlet.physicalState === pending.target ? { kind: 'confirmed' } : late();
}

/**
 * A cycle is judged by the relay alone: off, then on again once the off-time is over. Units differ in
 * what the transient state does meanwhile (reference §13: some keep it on, some let it follow the
 * relay), so it decides nothing; the relay still off after the deadline is the failure.
 */
function resolveCycle(
  pending: PendingOutlet,
  outlet: Outlet,
  now: number,
  late: () => Resolution,
): Resolution {
  if (!outlet.physicalState) {
    const waiting = late();
    if (waiting.kind === 'waiting') return { kind: 'waiting', sawOff: true };
    const reason = pending.unanswered
      ? `${NO_ANSWER}, and the outlet is off`
      : `it went off and did not come back on within ${Math.round((now - pending.since) / 1000)} s, so it stays off`;
    return { kind: 'failed', reason };
  }
  const answeredAt = pending.answeredAt ?? now;
  const offTimeOver =
    pending.sawOff ||
    (!pending.unanswered &&
      (pending.cycleEndsAt !== null ? now >= pending.cycleEndsAt : now - answeredAt >= 1000));
  return offTimeOver ? { kind: 'confirmed' } : late();
}

/** The contract's view of a pending change. */
export function pendingChange(pending: PendingOutlet): PendingChange {
  return { kind: pending.kind, target: pending.target, since: pending.since };
}
