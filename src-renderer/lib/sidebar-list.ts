/**
 * The controller sidebar's list: what a row shows, the filter (name, address, alias,
 * tag, status; comma-separated terms must all match), the sorts, the outlets whose names match, and the keys that move
 * through the rows. Pure functions, so filtering 200 controllers is tested without a window.
 */
import type { ControllerState, ControllerStatus, ControllerSummary } from '../../src-preload/model';
import { STATUS_TEXT } from './status';

/** What the sidebar shows for one controller. */
export interface SidebarItem {
  id: string;
  name: string;
  url: string;
  alias: string | null;
  colour: string;
  status: ControllerStatus;
  tags: string[];
  demo: boolean;
  /** Epoch ms of the next connection attempt while it fails; null when none is planned. */
  nextAttemptAt: number | null;
}

export type SortKey = 'order' | 'name' | 'status' | 'tag';

export const SORT_LABELS: Record<SortKey, string> = {
  order: 'Saved order',
  name: 'Name',
  status: 'Problems first',
  tag: 'Tag',
};

export function sidebarItem(summary: ControllerSummary, state: ControllerState | undefined): SidebarItem {
  return {
    id: summary.id,
    name: summary.name,
    url: summary.url,
    alias: summary.alias ?? null,
    colour: summary.colour,
    status: state?.status ?? 'connecting',
    tags: summary.tags ?? [],
    demo: summary.demo,
    nextAttemptAt: state?.nextAttemptAt ?? null,
  };
}

/**
 * The terms of a filter, lower-case: the text between commas ("bench, unit 2" is two terms), so a tag
 * like "rack 2" is found as written and does not match "rack 1" on Unit 21. Empty for a blank filter.
 */
export function filterTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(',')
    .map((term) => term.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
}

/** Every term appears within one of `fields` (each term may match a different field). */
export function termsMatch(terms: readonly string[], fields: readonly string[]): boolean {
  const lower = fields.map((f) => f.toLowerCase());
  return terms.every((term) => lower.some((field) => field.includes(term)));
}

/** Every term of the filter appears in the name, address, alias, a tag or the status words. */
export function matchesFilter(item: SidebarItem, query: string): boolean {
  const terms = filterTerms(query);
  if (terms.length === 0) return true;
  return termsMatch(terms, [item.name, item.url, item.alias ?? '', ...item.tags, STATUS_TEXT[item.status]]);
}

/** Statuses that need someone first, then the ones on their way, online last. */
const STATUS_RANK: Record<ControllerStatus, number> = {
  offline: 0,
  error: 1,
  auth_failed: 2,
  password_needed: 2,
  tls_changed: 3,
  api_disabled: 4,
  rebooting: 5,
  connecting: 6,
  online: 7,
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The items in the chosen order; ties keep the saved order (the input's order). */
export function sortItems(items: readonly SidebarItem[], key: SortKey): SidebarItem[] {
  const indexed = items.map((item, index) => ({ item, index }));
  const byKey = (a: SidebarItem, b: SidebarItem): number => {
    switch (key) {
      case 'name':
        return collator.compare(a.name, b.name);
      case 'status':
        return STATUS_RANK[a.status] - STATUS_RANK[b.status];
      case 'tag': {
        // Untagged controllers last; the same first tag sorts by name.
        const ta = a.tags[0];
        const tb = b.tags[0];
        if (ta === undefined || tb === undefined)
          return (ta === undefined ? 1 : 0) - (tb === undefined ? 1 : 0);
        return collator.compare(ta, tb) || collator.compare(a.name, b.name);
      }
      default:
        return 0;
    }
  };
  return indexed.sort((a, b) => byKey(a.item, b.item) || a.index - b.index).map((x) => x.item);
}

/** "retrying in 8 s" while a failing controller has its next attempt planned; null otherwise. */
export function retryWords(item: Pick<SidebarItem, 'status' | 'nextAttemptAt'>, now: number): string | null {
  if (item.nextAttemptAt === null || item.status === 'online' || item.status === 'rebooting') return null;
  const seconds = Math.ceil((item.nextAttemptAt - now) / 1000);
  return seconds > 0 ? `retrying in ${seconds} s` : 'retrying now';
}

/** An outlet whose name matched a search. */
export interface OutletHit {
  controllerId: string;
  controllerName: string;
  outlet: number;
  name: string;
}

/** Named outlets of every controller whose name holds every term of the query, in the controllers' order. */
export function outletHits(
  controllers: readonly Pick<ControllerSummary, 'id' | 'name'>[],
  states: Readonly<Record<string, ControllerState>>,
  query: string,
): OutletHit[] {
  const terms = filterTerms(query);
  if (terms.length === 0) return [];
  return controllers.flatMap((c) =>
    (states[c.id]?.outlets ?? [])
      .filter((o) => o.name.trim() !== '' && termsMatch(terms, [o.name]))
      .map((o) => ({ controllerId: c.id, controllerName: c.name, outlet: o.number, name: o.name.trim() })),
  );
}

/** The row a key moves to in a vertical list (Up/Down wrap, Home/End jump), or null for other keys. */
export function nextRow(key: string, ids: readonly string[], current: string | null): string | null {
  const n = ids.length;
  if (n === 0) return null;
  const i = current === null ? -1 : ids.indexOf(current);
  switch (key) {
    case 'ArrowDown':
      return ids[(i + 1) % n]!;
    case 'ArrowUp':
      return ids[i <= 0 ? n - 1 : i - 1]!;
    case 'Home':
      return ids[0]!;
    case 'End':
      return ids[n - 1]!;
    default:
      return null;
  }
}
