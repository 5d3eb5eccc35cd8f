/**
 * What one poll of a steady controller reads, from why it runs: a refresh someone asked for (outlets and
 * meters), a hint from the unit's own MQTT messages (the outlets they name, or all of them, at once), or
 * the schedule (the plan of poll-policy.ts; while the unit publishes, the whole list only when due).
 */
import { outletsDue, pollPlan, type PlanInput, type PollPlan, type PollSituation } from './poll-policy';
import type { PollTiming } from './poll-policy';

/** Outlets a unit's messages named (1-based), or 'all' when one named none Plugboard could tell. */
export type Hinted = 'all' | ReadonlySet<number>;

export interface ReadPlan extends PollPlan {
  /**
   * 'all': the whole list (`GET relay/outlets/`); a list of numbers: those outlets alone, one small
   * request each (a hint); 'none': no outlet (the unit publishes them and their safety read is not due).
   */
  outlets: 'all' | 'none' | number[];
}

export interface ReadWhy {
  /** A refresh someone asked for. */
  asked: boolean;
  /** The unit said something about these outlets (MQTT): read them now. Null: no message since. */
  hinted: Hinted | null;
  /** When the whole outlet list was last read (epoch ms), or null. */
  lastOutletRead: number | null;
  intervalMs: number;
  publishing: PollSituation['publishing'];
  /** Outlets waiting for a change Plugboard sent to be confirmed (read with a hint's outlets). */
  pendingOutlets: readonly number[];
  /** The outlets known (null before the first read: a hint then reads them all). */
  knownOutlets: readonly number[] | null;
}

export function readPlan(why: ReadWhy, input: PlanInput, timing: PollTiming): ReadPlan {
  if (why.asked) return { outlets: 'all', meters: input.hasMeters, slow: false, threads: false };
  if (why.hinted !== null) {
    const nothingElse = { meters: false, slow: false, threads: false };
    if (why.hinted === 'all' || why.knownOutlets === null) return { outlets: 'all', ...nothingElse };
    const known = new Set(why.knownOutlets);
    // A pending outlet is read too: the read settles pending changes, and must see every one it settles.
    const wanted = [...new Set([...why.hinted, ...why.pendingOutlets])].filter((n) => known.has(n));
    if (wanted.length === 0 || wanted.length * 2 > known.size) return { outlets: 'all', ...nothingElse };
    return { outlets: wanted.sort((a, b) => a - b), ...nothingElse };
  }
  const due = outletsDue(input.now, why.lastOutletRead, why.intervalMs, why.publishing);
  return { outlets: due ? 'all' : 'none', ...pollPlan(input, timing) };
}

/** While the unit publishes: whether anything besides the outlets is read at the steady interval. */
export function othersWanted(input: Omit<PlanInput, 'confirming' | 'now' | 'lastSlowRead'>): boolean {
  return (input.hasMeters && (input.visible || input.watchedMeters)) || (input.isAdmin && input.visible);
}
