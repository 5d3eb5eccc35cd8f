/**
 * What one poll of a steady controller reads, from why it runs: a refresh someone asked for (outlets and
 * meters), a hint from the unit's own MQTT message (the outlets alone, at once), or the schedule (the
 * plan of poll-policy.ts, the outlets only when due while the unit publishes them).
 */
import { outletsDue, pollPlan, type PlanInput, type PollPlan, type PollSituation } from './poll-policy';
import type { PollTiming } from './poll-policy';

export interface ReadPlan extends PollPlan {
  /** Read the outlets (false only while the unit publishes them and their safety read is not due). */
  outlets: boolean;
}

export interface ReadWhy {
  /** A refresh someone asked for. */
  asked: boolean;
  /** The unit said something about its outlets (MQTT): read them now. */
  hinted: boolean;
  /** When the outlets were last read (epoch ms), or null. */
  lastOutletRead: number | null;
  intervalMs: number;
  publishing: PollSituation['publishing'];
}

export function readPlan(why: ReadWhy, input: PlanInput, timing: PollTiming): ReadPlan {
  if (why.asked) return { outlets: true, meters: input.hasMeters, slow: false, threads: false };
  if (why.hinted) return { outlets: true, meters: false, slow: false, threads: false };
  const outlets = outletsDue(input.now, why.lastOutletRead, why.intervalMs, why.publishing);
  return { outlets, ...pollPlan(input, timing) };
}

/** While the unit publishes: whether anything besides the outlets is read at the steady interval. */
export function othersWanted(input: Omit<PlanInput, 'confirming' | 'now' | 'lastSlowRead'>): boolean {
  return (input.hasMeters && (input.visible || input.watchedMeters)) || (input.isAdmin && input.visible);
}
