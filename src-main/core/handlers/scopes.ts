/**
 * Scopes, checked beside the role (permissions.ts) before any handler runs, so every door (window,
 * tray, CLI, JSON API, link, pdudaemon, groups, sequences) gets one answer in the same words. A scope
 * limits where a caller's role applies; beyond it the caller is an observer: every read stays open, and
 * a call that needs more than an observer may go only when everything it would touch is inside.
 *
 * What a call touches is known from its input and the Core's state before the first request is queued:
 * an outlet, every outlet of a group or sequence (its saved members), a reservation's cells, a run's
 * steps. Saving or removing a group or sequence touches its outlets, as saved and as it would become: a
 * scoped administrator keeps the definitions of its own outlets, and cannot reach others' through them. A call on the unit as a whole (its users, scripts, SSH, relay timing, reboot, AutoPing, its
 * saved address or secret, reserving all of it, switching 'all') needs the controller itself inside, by
 * id or tag: single outlets do not add up to a unit. A call on the lab as a whole (adding controllers,
 * their order, demos, settings, discovery, a password for every unit) and changing a controller's tags
 * (tags are what scopes are written in: a narrow caller must not widen anyone's) need a scope of
 * everything. Releasing one's own reservation only gives back and is never limited.
 */
import type { CallName, CallParsed } from '../../../src-preload/contract';
import type {
  Caller,
  ControllerSummary,
  Group,
  OutletRef,
  ReservationCell,
  Scope,
} from '../../../src-preload/model';
import { outletLabel } from '../../../src-preload/words';
import { PlugboardError } from '../../shared/errors';

/** What the scope check needs of the Core's state; null when a thing is unknown (the call answers NOT_FOUND). */
export interface ScopeFacts {
  controller(id: string): Pick<ControllerSummary, 'name' | 'tags'> | null;
  /** The outlet's name as last read, when known. */
  outletName(controllerId: string, outlet: number): string | undefined;
  group(id: string): Group | null;
  reservationCovers(id: string): readonly ReservationCell[] | null;
  runOutlets(runId: string): readonly OutletRef[] | null;
}

/** One place a call touches: an outlet, the controller as a whole, or any part of it (polling). */
interface Cell {
  controllerId: string;
  outlet: number | 'whole' | 'any';
}

type Touches = readonly Cell[] | 'lab';
type Input<K extends CallName> = CallParsed<K>;
type TouchRule<K extends CallName> = (input: Input<K>, facts: ScopeFacts) => Touches;

const NOTHING: Touches = [];
const lab = (): Touches => 'lab';
const reads = (): Touches => NOTHING;
const whole = (controllerId: string): Cell[] => [{ controllerId, outlet: 'whole' }];
const onUnit = (input: { controllerId: string }): Touches => whole(input.controllerId);
const outlet = (input: { controllerId: string; outlet: number }): Touches => [input];
const refs = (members: readonly OutletRef[]): Cell[] => members.map((m) => ({ ...m }));
const stepCells = (steps: readonly { controllerId: string; outlets: readonly number[] }[]): Cell[] =>
  steps.flatMap((s) => s.outlets.map((n) => ({ controllerId: s.controllerId, outlet: n })));
const groupCells = (group: Group | null): Cell[] =>
  group ? [...refs(group.members), ...stepCells(group.steps ?? [])] : [];

/** What each call touches; a call missing here does not compile. */
const TOUCHES: { [K in CallName]: TouchRule<K> } = {
  'app/info': reads,
  'app/snapshot': reads,
  'app/whoami': reads,
  'labs/list': reads,
  'labs/call': reads,
  'controllers/list': reads,
  'meters/history': reads,
  'meters/exportCsv': reads,
  'meters/breaches': reads,
  'activity/list': reads,
  'activity/export': reads,
  'settings/get': reads,
  'reservations/list': reads,
  'reservations/holder': reads,
  'groups/list': reads,
  'sequences/runs': reads,
  'fleet/inventory': reads,
  'fleet/inventoryCsv': reads,
  'autoping/list': reads,
  'controllers/readAdmin': reads,

  'outlets/set': (i) =>
    i.outlets === 'all'
      ? whole(i.controllerId)
      : i.outlets.map((n) => ({ controllerId: i.controllerId, outlet: n })),
  'outlets/cycle': outlet,
  'outlets/switch': (i) => i.changes.map((c) => ({ controllerId: i.controllerId, outlet: c.outlet })),
  'outlets/rename': outlet,
  'outlets/configure': outlet,
  'controllers/refresh': (i) => [{ controllerId: i.id, outlet: 'any' }],
  'reservations/take': ({ target }, facts) =>
    target.kind === 'outlet'
      ? [target]
      : target.kind === 'controller'
        ? whole(target.controllerId)
        : groupCells(facts.group(target.groupId)),
  'reservations/release': reads,
  'reservations/break': ({ id }, facts) =>
    (facts.reservationCovers(id) ?? []).map((c) => ({
      controllerId: c.controllerId,
      outlet: c.outlet ?? 'whole',
    })),
  'groups/run': ({ id }, facts) => groupCells(facts.group(id)),
  'sequences/run': ({ id }, facts) => groupCells(facts.group(id)),
  'sequences/abort': ({ runId }, facts) => refs(facts.runOutlets(runId) ?? []),
  'sequences/dismiss': ({ runId }, facts) => refs(facts.runOutlets(runId) ?? []),
  'groups/save': (i, facts) => [...refs(i.members), ...(i.id ? groupCells(facts.group(i.id)) : [])],
  'groups/remove': ({ id }, facts) => groupCells(facts.group(id)),
  'sequences/save': (i, facts) => [...stepCells(i.steps), ...(i.id ? groupCells(facts.group(i.id)) : [])],

  'controllers/add': lab,
  'controllers/addMany': lab,
  'controllers/importPreview': lab,
  'controllers/reorder': lab,
  'controllers/update': (i) => (i.tags !== undefined ? 'lab' : whole(i.id)),
  'controllers/remove': (i) => whole(i.id),
  'controllers/trustCertificate': (i) => whole(i.id),
  'controllers/secretWhere': onUnit,
  'controllers/providePassword': (i) => (i.ids ? i.ids.flatMap(whole) : 'lab'),
  'demo/start': lab,
  'demo/remove': lab,
  // People are the lab's: an administrator of part of it neither sees nor manages its accounts.
  'accounts/list': lab,
  'accounts/add': lab,
  'accounts/update': lab,
  'accounts/setPassword': lab,
  'accounts/remove': lab,
  'accounts/setDisabled': lab,
  'accounts/revoke': lab,
  'labs/add': lab,
  'labs/remove': lab,
  'labs/signIn': lab,
  'labs/signInWithProvider': lab,
  'labs/signOut': lab,
  'scripts/start': onUnit,
  'scripts/stop': onUnit,
  'users/create': onUnit,
  'users/delete': onUnit,
  'users/update': onUnit,
  'system/setSsh': onUnit,
  'system/setRelayTiming': onUnit,
  'system/reboot': onUnit,
  'system/tree': onUnit,
  'autoping/save': onUnit,
  'autoping/remove': onUnit,
  'settings/set': lab,
  'discovery/start': lab,
  'discovery/stop': lab,
};

/** Where a call reaches that `scope` does not: [] when the call may go. */
export function outsideScope<K extends CallName>(
  name: K,
  input: Input<K>,
  scope: Scope,
  facts: ScopeFacts,
): readonly Cell[] | 'lab' {
  if (scope.kind === 'all') return [];
  const touches = (TOUCHES[name] as TouchRule<K>)(input, facts);
  if (touches === 'lab') return 'lab';
  const seen = new Set<string>();
  return touches.filter((cell) => {
    const id = placeId(cell);
    if (seen.has(id) || inside(cell, scope, facts)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The one place a call would touch, for its refusal's entry in the activity log: the controller, with
 * the outlet when it is the only one; null when the call touches the lab, nothing, or several controllers.
 */
export function touchedPlace<K extends CallName>(
  name: K,
  input: Input<K>,
  facts: ScopeFacts,
): { controllerId: string; outlet: number | null } | null {
  const touches = (TOUCHES[name] as TouchRule<K>)(input, facts);
  if (touches === 'lab' || touches.length === 0) return null;
  const [first] = touches as [Cell, ...Cell[]];
  if (touches.some((cell) => cell.controllerId !== first.controllerId)) return null;
  const one = typeof first.outlet === 'number' && touches.every((cell) => cell.outlet === first.outlet);
  return { controllerId: first.controllerId, outlet: one ? (first.outlet as number) : null };
}

function inside(cell: Cell, scope: Extract<Scope, { kind: 'some' }>, facts: ScopeFacts): boolean {
  const controller = facts.controller(cell.controllerId);
  // An unknown controller is touched by nothing: the call itself answers NOT_FOUND.
  if (!controller) return true;
  if (scope.controllers.includes(cell.controllerId)) return true;
  if ((controller.tags ?? []).some((tag) => scope.tags.includes(tag))) return true;
  const mine = scope.outlets.filter((o) => o.controllerId === cell.controllerId);
  if (cell.outlet === 'whole') return false;
  if (cell.outlet === 'any') return mine.length > 0;
  return mine.some((o) => o.outlet === cell.outlet);
}

/**
 * Throw FORBIDDEN, in the role refusal's words and code, unless everything the call touches is inside
 * `caller`'s scope. `subject` names the caller as the role's refusal does; `what` is the call's words.
 */
export function assertInScope<K extends CallName>(
  name: K,
  input: Input<K>,
  caller: Caller,
  facts: ScopeFacts,
  subject: string,
  what: string,
): void {
  if (!caller.scope) return;
  const outside = outsideScope(name, input, caller.scope, facts);
  if (outside !== 'lab' && outside.length === 0) return;
  const who = `${subject} (${caller.role} of ${scopeWords(caller.scope, facts)})`;
  const why =
    outside === 'lab'
      ? 'that reaches the whole lab, and only a scope of everything may'
      : `${placesWords(outside, facts)} outside its scope`;
  throw new PlugboardError(
    'FORBIDDEN',
    `${who} may not ${what}: ${why}.`,
    {
      role: caller.role,
      call: name,
      scope: true,
      outside: outside === 'lab' ? 'lab' : outside.map((c) => placeId(c)),
    },
    { action: "Ask the service's administrator to widen its scope, or use a client whose scope reaches it." },
  );
}

/** How a scope reads in a sentence: "tag rack-7", "tags a and b, Bench C and outlet 2 on Bench D". */
export function scopeWords(scope: Scope, facts: Pick<ScopeFacts, 'controller'>): string {
  if (scope.kind === 'all') return 'everything';
  const parts: string[] = [];
  if (scope.tags.length) parts.push(`${scope.tags.length === 1 ? 'tag' : 'tags'} ${listed(scope.tags)}`);
  for (const id of scope.controllers) parts.push(facts.controller(id)?.name ?? id);
  for (const o of scope.outlets)
    parts.push(`outlet ${o.outlet} on ${facts.controller(o.controllerId)?.name ?? o.controllerId}`);
  return parts.length ? listed(parts) : 'nothing';
}

/** "outlet 3 on Bench A is", "outlets 2 and 4 (Router) on Bench B are", "Bench C is". */
function placesWords(cells: readonly Cell[], facts: ScopeFacts): string {
  const byController = new Map<string, Cell[]>();
  for (const cell of cells)
    byController.set(cell.controllerId, [...(byController.get(cell.controllerId) ?? []), cell]);
  let many = byController.size > 1;
  const parts = [...byController].map(([id, mine]) => {
    const name = facts.controller(id)?.name ?? id;
    const numbers = mine.flatMap((c) => (typeof c.outlet === 'number' ? [c.outlet] : []));
    if (numbers.length < mine.length) return name;
    many ||= numbers.length > 1;
    const labels = numbers.map((n) => outletLabel(n, facts.outletName(id, n)).replace(/^outlet /, ''));
    return `${labels.length === 1 ? 'outlet' : 'outlets'} ${listed(labels)} on ${name}`;
  });
  const shown = parts.length > 4 ? [...parts.slice(0, 3), `${parts.length - 3} more controllers`] : parts;
  return `${listed(shown)} ${many ? 'are' : 'is'}`;
}

function placeId(cell: Cell): string {
  return typeof cell.outlet === 'number' ? `${cell.controllerId}:${cell.outlet}` : cell.controllerId;
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
