/**
 * What the Overview shows at 200 controllers: filters (offline, on, locked, critical, reserved, a tag)
 * and problems first. Pure functions over the window's model, so they are tested without a window.
 */
import type { ControllerState, ControllerStatus, ControllerSummary } from '../../src-preload/model';
import { statusOf } from './status';

/** The Overview's filter switches; a controller must match every one that is on. */
export const OVERVIEW_FILTERS = ['offline', 'on', 'locked', 'critical', 'reserved'] as const;
export type OverviewFilter = (typeof OVERVIEW_FILTERS)[number];

/** The words on each filter button. */
export const FILTER_TEXT: Record<OverviewFilter, string> = {
  offline: 'Not online',
  on: 'Outlets on',
  locked: 'Locked outlets',
  critical: 'Critical outlets',
  reserved: 'Reserved',
};

export interface OverviewQuery {
  filters: ReadonlySet<OverviewFilter>;
  /** Only controllers with this tag (exact, as saved); null: any. */
  tag: string | null;
}

/** Everything a filter needs to know about one controller. */
export interface OverviewItem {
  summary: ControllerSummary;
  live: ControllerState | undefined;
  /** Someone holds the controller or one of its outlets. */
  reserved: boolean;
  /** Its last good poll is too old to trust (see staleFor). */
  stale: boolean;
}

/**
 * How urgent a controller is, lowest first: it cannot be reached or logged in to (0), it needs a look
 * (rebooting, or its last answer is old: 1), it is still connecting (2), all is well (3).
 */
export function urgency(status: ControllerStatus, stale: boolean): number {
  switch (status) {
    case 'offline':
    case 'auth_failed':
    case 'password_needed':
    case 'api_disabled':
    case 'tls_changed':
    case 'error':
      return 0;
    case 'rebooting':
      return 1;
    case 'connecting':
      return 2;
    case 'online':
      return stale ? 1 : 3;
  }
}

/** A controller that is not online and not merely still connecting (an old last answer alone is not enough). */
export function isProblem(item: OverviewItem): boolean {
  return urgency(statusOf(item.live), false) < 2;
}

function matches(item: OverviewItem, filter: OverviewFilter): boolean {
  const outlets = item.live?.outlets ?? [];
  switch (filter) {
    case 'offline':
      return isProblem(item);
    case 'on':
      return outlets.some((o) => o.physicalState);
    case 'locked':
      return outlets.some((o) => o.locked);
    case 'critical':
      return outlets.some((o) => o.critical);
    case 'reserved':
      return item.reserved;
  }
}

/** The controllers the query lets through, problems first, otherwise in the order given (tab order). */
export function overviewItems(items: readonly OverviewItem[], query: OverviewQuery): OverviewItem[] {
  const shown = items.filter(
    (item) =>
      (query.tag === null || (item.summary.tags ?? []).includes(query.tag)) &&
      [...query.filters].every((filter) => matches(item, filter)),
  );
  const rank = (item: OverviewItem) => urgency(statusOf(item.live), item.stale);
  return shown
    .map((item, index) => ({ item, index, rank: rank(item) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.item);
}

/** Every tag any controller has, sorted as people read them. */
export function allTags(controllers: readonly ControllerSummary[]): string[] {
  const tags = new Set(controllers.flatMap((c) => c.tags ?? []));
  return [...tags].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true }));
}
