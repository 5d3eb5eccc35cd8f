/**
 * What the quick switcher (Ctrl+K) finds for a query: controllers (name, address,
 * alias, tags), outlets by name across every controller, and groups by name; comma-separated terms
 * must all match. Best matches first: a name
 * that is the query, then one that starts with it, then one with a word that does, then the rest.
 */
import type { ControllerState, ControllerSummary, Group } from '../../src-preload/model';
import { filterTerms, outletHits, termsMatch } from './sidebar-list';

export type SwitchTarget =
  | { kind: 'controller'; controllerId: string }
  | { kind: 'outlet'; controllerId: string; outlet: number }
  | { kind: 'group'; groupId: string };

export interface SwitchResult {
  /** Unique among the results (an element id part). */
  key: string;
  /** The words a person reads: "Router on Bench A · outlet 3". */
  label: string;
  /** What kind of thing it is, shown next to the label. */
  kind: 'Controller' | 'Outlet' | 'Group';
  target: SwitchTarget;
}

/** At most this many results are listed: typing more narrows them. */
export const MAX_RESULTS = 50;

/** 0 the name is the query, 1 it starts with it, 2 a word in it does, 3 it only contains the words. */
function rank(name: string, query: string): number {
  const n = name.toLowerCase();
  const q = query.trim().toLowerCase();
  if (n === q) return 0;
  if (n.startsWith(q)) return 1;
  if (n.split(/[\s\-_.·]+/).some((word) => word.startsWith(q))) return 2;
  return 3;
}

const KIND_ORDER = { Controller: 0, Group: 1, Outlet: 2 } as const;

export function switchResults(
  query: string,
  controllers: readonly ControllerSummary[],
  states: Readonly<Record<string, ControllerState>>,
  groups: readonly Group[],
): SwitchResult[] {
  const terms = filterTerms(query);
  const first = terms[0] ?? '';
  const found: (SwitchResult & { rank: number })[] = [];
  for (const c of controllers) {
    if (termsMatch(terms, [c.name, c.url, c.alias ?? '', ...(c.tags ?? [])]))
      found.push({
        key: `c-${c.id}`,
        label: c.name,
        kind: 'Controller',
        target: { kind: 'controller', controllerId: c.id },
        rank: first ? rank(c.name, first) : 0,
      });
  }
  for (const g of groups) {
    if (termsMatch(terms, [g.name]))
      found.push({
        key: `g-${g.id}`,
        label: g.name,
        kind: 'Group',
        target: { kind: 'group', groupId: g.id },
        rank: first ? rank(g.name, first) : 0,
      });
  }
  for (const hit of outletHits(controllers, states, query)) {
    found.push({
      key: `o-${hit.controllerId}-${hit.outlet}`,
      label: `${hit.name} on ${hit.controllerName} · outlet ${hit.outlet}`,
      kind: 'Outlet',
      target: { kind: 'outlet', controllerId: hit.controllerId, outlet: hit.outlet },
      rank: rank(hit.name, first),
    });
  }
  // A stable sort: equal ranks keep the controllers' saved order.
  return found
    .map((r, index) => ({ r, index }))
    .sort((a, b) => a.r.rank - b.r.rank || KIND_ORDER[a.r.kind] - KIND_ORDER[b.r.kind] || a.index - b.index)
    .slice(0, MAX_RESULTS)
    .map(({ r: { rank: _rank, ...result } }) => result);
}
