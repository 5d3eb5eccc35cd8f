/**
 * When to poll a controller next, and what to read: pure functions of the session's situation, so the
 * schedule is tested without a network or a clock.
 *
 * - steady: every `pollIntervalMs` (the setting, applied live);
 * - fast: every `fastMs` while a change Plugboard sent is not yet confirmed (cycle off-times and
 *   on-sequence delays make the physical state lag);
 * - backoff: after failures, the interval doubles per failure up to `backoffCapMs`, and falls back to
 *   steady on the first success;
 * - paused: no polling while only the person can fix it (wrong password, certificate to accept);
 * - rebooting: quick probes that back off to `rebootCapMs` until the controller answers again;
 * - publishing: the unit publishes its outlet changes over MQTT (each message a hint that reads the
 *   outlets at once, unit-hints.ts): the outlets are read only every `unitSafetyPollMs` (never more often
 *   than the steady interval), the meters and an administrator's slow parts keep their own schedule.
 */
import type { Settings } from '../../../src-preload/model';

export interface PollTiming {
  /** Interval while a change is pending confirmation. */
  fastMs: number;
  /** Longest wait between attempts while a controller fails. */
  backoffCapMs: number;
  /** Scripts, threads, users and SSH are re-read this often (administrators, window visible). */
  slowEveryMs: number;
  /** First probe after a reboot request, then doubling up to `rebootCapMs`. */
  rebootFirstMs: number;
  rebootCapMs: number;
  /** Give up waiting for a rebooting controller after this long (it is then offline). */
  rebootGiveUpMs: number;
  /** A pending change not confirmed after its expected lag plus this is reported as failed. */
  pendingSlackMs: number;
  /** Re-push an unchanged state this often, so "last update" in the window stays honest. */
  heartbeatMs: number;
}

export const DEFAULT_TIMING: PollTiming = {
  fastMs: 250,
  backoffCapMs: 60_000,
  slowEveryMs: 30_000,
  rebootFirstMs: 250,
  rebootCapMs: 5_000,
  rebootGiveUpMs: 300_000,
  pendingSlackMs: 10_000,
  heartbeatMs: 5_000,
};

export type PollPhase = 'connect' | 'steady' | 'rebooting' | 'paused' | 'stopped';

export interface PollSituation {
  phase: PollPhase;
  /** Consecutive failed polls (0 after a success). */
  failures: number;
  /** A change Plugboard sent is waiting for the controller to confirm it. */
  pending: boolean;
  /** The steady interval from the settings. */
  intervalMs: number;
  /**
   * The unit publishes its outlet changes (MQTT): the outlets' safety interval, and whether anything else
   * is read at the steady interval (meters someone looks at or watches, an administrator's slow parts).
   * Absent: the outlets are read at the steady interval.
   */
  publishing?: {
    safetyMs: number;
    othersWanted: boolean;
    /** Milliseconds since the whole outlet list was last read, or null (not yet). */
    sinceOutletsMs: number | null;
  };
}

/** Milliseconds until the next poll, or null for no poll until something changes (paused, stopped). */
export function nextPollDelay(situation: PollSituation, timing: PollTiming): number | null {
  const { phase, failures, intervalMs } = situation;
  if (phase === 'paused' || phase === 'stopped') return null;
  if (phase === 'rebooting') {
    return Math.min(timing.rebootCapMs, timing.rebootFirstMs * 2 ** Math.min(failures, 16));
  }
  if (failures > 0) {
    return Math.min(Math.max(timing.backoffCapMs, intervalMs), intervalMs * 2 ** Math.min(failures - 1, 16));
  }
  if (situation.pending) return Math.min(timing.fastMs, intervalMs);
  const publishing = situation.publishing;
  if (publishing && !publishing.othersWanted) {
    // From the last read of the whole list: reads of single outlets a message asked for do not count.
    const safety = outletSafetyMs(intervalMs, publishing.safetyMs);
    return Math.max(0, safety - (publishing.sinceOutletsMs ?? 0));
  }
  return intervalMs;
}

/** The outlets' interval while the unit publishes: the safety interval, never below the steady one. */
export function outletSafetyMs(intervalMs: number, safetyMs: number): number {
  return Math.max(intervalMs, safetyMs);
}

/**
 * Whether a steady poll reads the outlets: always, unless the unit publishes its changes and the last
 * read of them is younger than the safety interval (a poll then reads only what else is due). A poll
 * comes at most one steady interval late, so the read is due from one steady interval before.
 */
export function outletsDue(
  now: number,
  lastOutletRead: number | null,
  intervalMs: number,
  publishing: PollSituation['publishing'],
): boolean {
  if (!publishing || lastOutletRead === null) return true;
  return now - lastOutletRead >= outletSafetyMs(intervalMs, publishing.safetyMs) - intervalMs / 2;
}

/**
 * Epoch ms of the next attempt after a failed poll (the "retrying in N s" the window shows), or null
 * when nothing is planned until the person acts (paused) or polling stopped.
 */
export function nextAttemptAt(situation: PollSituation, timing: PollTiming, now: number): number | null {
  const delay = nextPollDelay(situation, timing);
  return delay === null ? null : now + delay;
}

/** A meter threshold with notifications on watches this controller (its meters matter while hidden). */
export function watchesMeters(settings: Settings, controllerId: string): boolean {
  return (
    settings.notifications.meterThresholds &&
    settings.meterThresholds.some((threshold) => threshold.controllerId === controllerId)
  );
}

export interface PlanInput {
  /** The controller has meters (false also while unknown). */
  hasMeters: boolean;
  isAdmin: boolean;
  /** The window (or a browser) is showing Plugboard. */
  visible: boolean;
  /** A meter threshold with notifications on watches this controller: meters matter while hidden. */
  watchedMeters: boolean;
  /** A fast poll to confirm a pending change: outlets only. */
  confirming: boolean;
  /** Epoch ms of the last scripts/users/SSH read, or null. */
  lastSlowRead: number | null;
  /** The last read showed script threads running. */
  threadsRunning: boolean;
  now: number;
}

export interface PollPlan {
  /** Read the meters too (a second request). */
  meters: boolean;
  /** Re-read scripts and threads, users and SSH. */
  slow: boolean;
  /** Re-read only the running threads (one small request), so a script that ends is not shown running. */
  threads: boolean;
}

/**
 * What one steady poll reads. Outlets always (the tray shows them); meters when someone can see them
 * or a threshold watches them; the slow parts only for administrators with the window showing; and,
 * between slow reads, the threads alone while scripts are running (they end on their own).
 */
export function pollPlan(input: PlanInput, timing: PollTiming): PollPlan {
  if (input.confirming) return { meters: false, slow: false, threads: false };
  const meters = input.hasMeters && (input.visible || input.watchedMeters);
  const slowDue = input.lastSlowRead === null || input.now - input.lastSlowRead >= timing.slowEveryMs;
  const adminWatching = input.isAdmin && input.visible;
  const slow = adminWatching && slowDue;
  return { meters, slow, threads: adminWatching && !slow && input.threadsRunning };
}
