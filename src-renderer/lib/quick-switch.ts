/**
 * What the quick switcher (Ctrl+K) finds for a query: controllers (name, address,
 * alias, tags), outlets by name across every controller, and groups by name; comma-separated terms
 * must all match. Best matches first: a name
 * that is the query, then one that starts with it, then one with a word that does, then the rest. Each
 * says its state (an outlet on or off, how many of a controller's or group's outlets are on), and the
 * list says how many matched when there are more than it shows.
 */
import type { ControllerState, ControllerSummary, Group } from '../../src-preload/model';
import { STATUS_TEXT } from '../../src-preload/words';
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
  /** Its power as last read: "on", "off", "3 of 8 on", or the controller's status when it is not online. */
  state: string;
  target: SwitchTarget;
}

/** What Go to lists for a query: the best `MAX_RESULTS` and how many matched in all. */
export interface SwitchMatches {
  results: SwitchResult[];
  total: number;
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

/** "3 of 8 on" for several outlets; "on"/"off" for one; "" when none has been read. */
function onWords(on: boolean[]): string {
  if (on.length === 0) return '';
  if (on.length === 1) return on[0] ? 'on' : 'off';
  return `${on.filter(Boolean).length} of ${on.length} on`;
}

function controllerState(state: ControllerState | undefined): string {
  if (!state) return STATUS_TEXT.connecting;
  if (state.status !== 'online') return STATUS_TEXT[state.status];
  return onWords(state.outlets.map((o) => o.physicalState));
}

function groupState(group: Group, states: Readonly<Record<string, ControllerState>>): string {
  const on = group.members.flatMap((m) => {
    const outlet = states[m.controllerId]?.outlets.find((o) => o.number === m.outlet);
    return outlet ? [outlet.physicalState] : [];
  });
  return onWords(on);
}

/** The best matches (at most MAX_RESULTS), best first. */
export function switchResults(
  query: string,
  controllers: readonly ControllerSummary[],
  states: Readonly<Record<string, ControllerState>>,
  groups: readonly Group[],
): SwitchResult[] {
  return switchMatches(query, controllers, states, groups).results;
}

/** The best matches (at most MAX_RESULTS) and how many matched in all. */
export function switchMatches(
  query: string,
  controllers: readonly ControllerSummary[],
  states: Readonly<Record<string, ControllerState>>,
  groups: readonly Group[],
): SwitchMatches {
  const terms = filterTerms(query);
  const first = terms[0] ?? '';
  const found: (SwitchResult & { rank: number })[] = [];
  for (const c of controllers) {
    if (termsMatch(terms, [c.name, c.url, c.alias ?? '', ...(c.tags ?? [])]))
      found.push({
        key: `c-${c.id}`,
        label: c.name,
        kind: 'Controller',
        state: controllerState(states[c.id]),
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
        state: groupState(g, states),
        target: { kind: 'group', groupId: g.id },
        rank: first ? rank(g.name, first) : 0,
      });
  }
  for (const hit of outletHits(controllers, states, query)) {
    const live = states[hit.controllerId];
    const outlet = live?.outlets.find((o) => o.number === hit.outlet);
    found.push({
      key: `o-${hit.controllerId}-${hit.outlet}`,
      label: `${hit.name} on ${hit.controllerName} · outlet ${hit.outlet}`,
      kind: 'Outlet',
      state:
        live && live.status !== 'online'
          ? STATUS_TEXT[live.status]
          : outlet
            ? onWords([outlet.physicalState])
            : '',
      target: { kind: 'outlet', controllerId: hit.controllerId, outlet: hit.outlet },
      rank: rank(hit.name, first),
    });
  }
  // A stable sort: equal ranks keep the controllers' saved order.
  const results = found
    .map((r, index) => ({ r, index }))
    .sort((a, b) => a.r.rank - b.r.rank || KIND_ORDER[a.r.kind] - KIND_ORDER[b.r.kind] || a.index - b.index)
    .slice(0, MAX_RESULTS)
    .map(({ r: { rank: _rank, ...result } }) => result);
  return { results, total: found.length };
}
