import { createSubscriber } from 'svelte/reactivity';
import type { ActivityEntry, ContractError } from '../../../src-preload/contract';
import { settle, type Backend } from '../backend';

/**
 * The activity log, newest first: loaded from `activity/list` and extended by `activity/added` (an entry
 * that comes again with the same id, a refusal counted again, replaces the one shown). It listens
 * only while something on screen reads it, and keeps at most `limit` entries.
 */
export class ActivityFeed {
  #entries = $state.raw<ActivityEntry[]>([]);
  #error = $state.raw<ContractError | null>(null);
  #loaded = $state(false);
  readonly #subscribe: () => void;

  constructor(api: Backend, limit = 10_000) {
    this.#subscribe = createSubscriber(() => {
      let active = true;
      let listed = false;
      /** Events that came while the list loaded, newest first: newer than anything the list holds. */
      const arrived: ActivityEntry[] = [];
      const off = api.on('activity/added', (entry) => {
        // A refusal counted again comes with its id: it replaces the one shown, where it is.
        const at = this.#entries.findIndex((e) => e.id === entry.id);
        if (at >= 0) {
          this.#entries = this.#entries.with(at, entry);
          const waiting = arrived.findIndex((e) => e.id === entry.id);
          if (waiting >= 0) arrived[waiting] = entry;
          return;
        }
        if (!listed) arrived.unshift(entry);
        this.#entries = [entry, ...this.#entries].slice(0, limit);
      });
      // Every (re)start reloads: what happened while nobody looked comes from the list.
      void settle(api.activity.list({ limit })).then((result) => {
        if (!active) return;
        listed = true;
        if (result.ok) {
          const oldestArrived = arrived.at(-1)?.id ?? Infinity;
          const older = result.value.filter((e) => e.id < oldestArrived).sort((a, b) => b.id - a.id);
          this.#entries = [...arrived, ...older].slice(0, limit);
          this.#error = null;
        } else this.#error = result.error;
        this.#loaded = true;
      });
      return () => {
        active = false;
        off();
      };
    });
  }

  get entries(): ActivityEntry[] {
    this.#subscribe();
    return this.#entries;
  }

  get error(): ContractError | null {
    this.#subscribe();
    return this.#error;
  }

  get loaded(): boolean {
    this.#subscribe();
    return this.#loaded;
  }
}

// ---------- what the Activity panel shows: pure, tested in test/renderer ----------

/**
 * The controller filter's value for the entries about the lab service itself (sign-ins, accounts,
 * refused calls), which the Core keeps under the controller id '': the filter's own '' is "every
 * controller", so they get a value no controller id can be (ids are printable).
 */
export const LAB_ENTRIES = '\u0000lab service';

/** The controller id the Core filters by for a controller filter's value. */
function filterId(value: string): string {
  return value === LAB_ENTRIES ? '' : value;
}

/** The controller filter's value that shows an entry's controller (or the lab service). */
export function controllerFilterValue(entry: Pick<ActivityEntry, 'controllerId'>): string {
  return entry.controllerId === '' ? LAB_ENTRIES : entry.controllerId;
}

/** The Activity panel's filters; each narrows, absent ones do not. Times are epoch ms. */
export interface ActivityQuery {
  /** A controller's id, or LAB_ENTRIES for the lab service's own entries. */
  controllerId?: string | undefined;
  /** An outlet number ("3") or part of an outlet's name ("rout"). */
  outlet?: string | undefined;
  /** An actor as `door\u0000who` (see actorKey). */
  actor?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
}

/** One actor: its door and who; the key the actor filter uses. */
export function actorKey(entry: Pick<ActivityEntry, 'source' | 'who'>): string {
  return `${entry.source}\u0000${entry.who ?? ''}`;
}

/** "Router (3)", "outlet 3" (no name recorded), or "" (the controller as a whole). */
export function outletText(entry: Pick<ActivityEntry, 'outlet' | 'outletName'>): string {
  if (entry.outlet === null) return '';
  const name = entry.outletName?.trim();
  return name ? `${name} (${entry.outlet})` : `outlet ${entry.outlet}`;
}

export function matchesQuery(entry: ActivityEntry, query: ActivityQuery): boolean {
  if (query.controllerId && entry.controllerId !== filterId(query.controllerId)) return false;
  if (query.since !== undefined && entry.time < query.since) return false;
  if (query.until !== undefined && entry.time > query.until) return false;
  if (query.actor !== undefined && actorKey(entry) !== query.actor) return false;
  const outlet = query.outlet?.trim().toLowerCase();
  if (outlet) {
    if (/^\d+$/.test(outlet)) return entry.outlet === Number(outlet);
    return entry.outletName?.toLowerCase().includes(outlet) ?? false;
  }
  return true;
}

/** The same filter as `activity/list` and `activity/export` take it. */
export function queryFilter(query: ActivityQuery): {
  controllerId?: string;
  outlet?: number;
  outletName?: string;
  who?: string;
  door?: ActivityEntry['source'];
  since?: number;
  until?: number;
} {
  const outlet = query.outlet?.trim();
  const [door, who] = query.actor?.split('\u0000') ?? [];
  return {
    ...(query.controllerId ? { controllerId: filterId(query.controllerId) } : {}),
    ...(outlet && /^\d+$/.test(outlet) ? { outlet: Number(outlet) } : outlet ? { outletName: outlet } : {}),
    ...(door ? { door: door as ActivityEntry['source'] } : {}),
    ...(who ? { who } : {}),
    ...(query.since !== undefined ? { since: query.since } : {}),
    ...(query.until !== undefined ? { until: query.until } : {}),
  };
}

/** A row of the panel: one entry, one action over several outlets (a batch), or an outlet of an open batch. */
export type ActivityRow =
  | { kind: 'entry'; key: string; entry: ActivityEntry }
  | { kind: 'batch'; key: string; entries: ActivityEntry[]; open: boolean }
  /** `withController`: the batch spans several controllers (a group run), so each part names its own. */
  | { kind: 'part'; key: string; entry: ActivityEntry; withController: boolean };

/** "Bench A" or "Bench A, Rack 7": the controllers of a batch, in order. */
export function batchControllers(parts: readonly ActivityEntry[]): string {
  return parts
    .map((e) => e.controllerName)
    .filter((name, i, names) => names.indexOf(name) === i)
    .join(', ');
}

/** Entries (newest first) as rows: the entries of one batch next to each other become one row. */
export function activityRows(entries: readonly ActivityEntry[], open: ReadonlySet<number>): ActivityRow[] {
  const rows: ActivityRow[] = [];
  let i = 0;
  while (i < entries.length) {
    const first = entries[i]!;
    let j = i + 1;
    if (first.batch !== undefined) while (j < entries.length && entries[j]!.batch === first.batch) j++;
    if (j - i === 1) rows.push({ kind: 'entry', key: `e${first.id}`, entry: first });
    else {
      // Oldest first inside a batch: the order the outlets were named in.
      const parts = entries.slice(i, j).reverse();
      const isOpen = open.has(first.batch!);
      rows.push({ kind: 'batch', key: `b${first.batch}`, entries: parts, open: isOpen });
      const withController = parts.some((e) => e.controllerId !== first.controllerId);
      if (isOpen)
        for (const entry of parts) rows.push({ kind: 'part', key: `p${entry.id}`, entry, withController });
    }
    i = j;
  }
  return rows;
}
