/**
 * Least privilege, checked by the Core on every call whatever the door (window, tray, CLI, the JSON API,
 * the remote link, pdudaemon, the web window): one table giving each call of the contract the least role
 * that may make it, and the few rules that depend on the input (someone else's reservation or sequence
 * run needs an administrator). A call missing from the table does not compile.
 *
 * Groups and sequences are shared definitions that other people's runs and reservations rely on:
 * an operator runs them, an administrator saves or removes them. Scripts run Lua on the unit, which can
 * switch any outlet past a reservation, so starting or stopping one is an administrator's.
 */
import { callNames, type CallName, type CallParsed, type Handlers } from '../../../src-preload/contract';
import { ROLES, type Caller, type Role } from '../../../src-preload/model';
import { isPlugboardError, PlugboardError } from '../../shared/errors';
import type { CoreContext } from '../flows/core-context';
import { LAB_SERVICE, type NewActivity } from '../activity/activity-types';
import { assertInScope, touchedPlace, type ScopeFacts } from './scopes';

/** Each call's least role, and what it does in a refusal's words ("…, not <what>"). */
export const CALL_ROLES: Record<CallName, readonly [Role, string]> = {
  'app/info': ['observer', 'read'],
  'app/snapshot': ['observer', 'read'],
  'app/whoami': ['observer', 'read'],
  // A desk's own labs: the lab checks each call made through `labs/call` against the account signed in.
  'labs/list': ['observer', 'read'],
  'labs/call': ['observer', 'read'],
  'controllers/list': ['observer', 'read'],
  'meters/history': ['observer', 'read'],
  'meters/exportCsv': ['observer', 'read'],
  'meters/breaches': ['observer', 'read'],
  'activity/list': ['observer', 'read'],
  'activity/export': ['observer', 'read'],
  'settings/get': ['observer', 'read'],
  'reservations/list': ['observer', 'read'],
  'reservations/holder': ['observer', 'read'],
  'groups/list': ['observer', 'read'],
  'sequences/runs': ['observer', 'read'],
  'fleet/inventory': ['observer', 'read'],
  'fleet/inventoryCsv': ['observer', 'read'],
  'autoping/list': ['observer', 'read'],
  // Reads only what the state already shows an observer, at most once per slow interval.
  'controllers/readAdmin': ['observer', 'read'],

  'outlets/set': ['operator', 'switch outlets'],
  'outlets/cycle': ['operator', 'cycle outlets'],
  'outlets/switch': ['operator', 'switch outlets'],
  'controllers/refresh': ['operator', 'poll a controller on demand'],
  'reservations/take': ['operator', 'reserve outlets'],
  // Someone else's is refused inside (RESERVED: only its holder releases it; breaking is below).
  'reservations/release': ['operator', 'release reservations'],
  'reservations/break': ['operator', 'break reservations'],
  'groups/run': ['operator', 'run groups'],
  'sequences/run': ['operator', 'run sequences'],
  'sequences/abort': ['operator', 'abort sequences'],
  'sequences/dismiss': ['operator', 'dismiss sequence runs'],

  'groups/save': ['admin', 'save groups'],
  'groups/remove': ['admin', 'remove groups'],
  'sequences/save': ['admin', 'save sequences'],
  'controllers/add': ['admin', 'add controllers'],
  'controllers/addMany': ['admin', 'add controllers'],
  'controllers/importPreview': ['admin', 'import controllers'],
  'controllers/update': ['admin', 'change a saved controller (its address, login or name)'],
  'controllers/remove': ['admin', 'remove controllers'],
  'controllers/reorder': ['admin', 'reorder controllers'],
  'controllers/trustCertificate': ['admin', "trust a controller's certificate"],
  'controllers/providePassword': ['admin', "give controllers' passwords"],
  'controllers/secretWhere': ['admin', "ask where a controller's secret is kept"],
  'demo/start': ['admin', 'start demo controllers'],
  'demo/remove': ['admin', 'remove demo controllers'],
  'outlets/rename': ['admin', 'rename outlets on the unit'],
  'outlets/configure': ['admin', "change an outlet's settings on the unit"],
  'scripts/start': ['admin', 'start scripts on the unit'],
  'scripts/stop': ['admin', 'stop scripts on the unit'],
  'users/create': ['admin', 'create users on the unit'],
  'users/delete': ['admin', 'delete users on the unit'],
  'users/update': ['admin', 'change users on the unit'],
  'system/setSsh': ['admin', 'turn SSH on or off'],
  'system/setRelayTiming': ['admin', "change the unit's relay timing"],
  'system/reboot': ['admin', 'reboot a controller'],
  'system/tree': ['admin', "browse the unit's API tree"],
  'autoping/save': ['admin', 'change AutoPing'],
  'autoping/remove': ['admin', 'change AutoPing'],
  'settings/set': ['admin', 'change the settings'],
  'discovery/start': ['admin', 'look for controllers on the network'],
  'discovery/stop': ['admin', 'look for controllers on the network'],
  'accounts/list': ['admin', 'see the accounts'],
  'accounts/add': ['admin', 'add accounts'],
  'accounts/update': ['admin', 'change accounts'],
  'accounts/setPassword': ['admin', "set accounts' passwords"],
  'accounts/remove': ['admin', 'remove accounts'],
  'accounts/setDisabled': ['admin', 'disable or enable accounts'],
  'accounts/revoke': ['admin', "end accounts' sessions"],
  'labs/add': ['admin', 'attach this desk to labs'],
  'labs/remove': ['admin', 'attach this desk to labs'],
  'labs/signIn': ['admin', 'sign this desk in to labs'],
  'labs/signInWithProvider': ['admin', 'sign this desk in to labs'],
  'labs/signOut': ['admin', 'sign this desk in to labs'],
};

/** What a role may do, in a refusal's words. */
const MAY: Record<Role, string> = {
  observer: 'read',
  operator: 'read, switch and reserve outlets, and run groups and sequences',
  admin: 'do everything',
};

/** Whether `have` is at least `need`. */
export function roleCovers(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** What the rules that depend on the input (and the caller's scope) need to know of the Core's state. */
export interface PermissionFacts extends ScopeFacts {
  /** Who holds reservation `id`; null when there is none (the call then answers NOT_FOUND itself). */
  reservationHolder(id: string): string | null;
  /** Who started sequence run `runId`; null when it is not known. */
  sequenceStarter(runId: string): string | null;
}

/** The facts, read from the Core's state at the moment of each call. */
export function permissionFacts(ctx: CoreContext): PermissionFacts {
  const reservation = (id: string) => ctx.reservations.list().find((r) => r.id === id);
  const run = (runId: string) => ctx.sequences.list().find((r) => r.runId === runId);
  return {
    reservationHolder: (id) => reservation(id)?.holder ?? null,
    sequenceStarter: (runId) => run(runId)?.who ?? null,
    controller: (id) => ctx.registry.get(id),
    outletName: (id, outlet) => ctx.sessions.peek(id)?.lastOutlets?.find((o) => o.number === outlet)?.name,
    group: (id) => ctx.registry.listGroups().find((g) => g.id === id) ?? null,
    reservationCovers: (id) => reservation(id)?.covers ?? null,
    runOutlets: (runId) =>
      run(runId)?.steps.flatMap((s) =>
        s.outlets.map((outlet) => ({ controllerId: s.controllerId, outlet })),
      ) ?? null,
  };
}

/** The role a call needs with this input, and its words for a refusal. */
export function neededFor<K extends CallName>(
  name: K,
  input: CallParsed<K>,
  caller: Caller,
  facts: PermissionFacts,
): readonly [Role, string] {
  if (name === 'reservations/break') {
    const holder = facts.reservationHolder((input as CallParsed<'reservations/break'>).id);
    if (holder !== null && holder !== caller.who) return ['admin', `break the reservation ${holder} holds`];
  }
  if (name === 'sequences/abort') {
    const starter = facts.sequenceStarter((input as CallParsed<'sequences/abort'>).runId);
    if (starter !== null && starter !== caller.who) return ['admin', `abort a sequence ${starter} started`];
  }
  return CALL_ROLES[name];
}

/**
 * Throw FORBIDDEN, in the same words from every door, unless `caller` may make this call: its role
 * first, then whether everything the call touches is inside its scope (scopes.ts).
 */
export function assertPermitted<K extends CallName>(
  name: K,
  input: CallParsed<K>,
  caller: Caller,
  facts: PermissionFacts,
): void {
  const [need, what] = neededFor(name, input, caller, facts);
  if (roleCovers(caller.role, need)) {
    if (need !== 'observer') assertInScope(name, input, caller, facts, subject(caller), what);
    return;
  }
  throw new PlugboardError(
    'FORBIDDEN',
    `${subject(caller)} is ${article(caller.role)} ${caller.role}: it may ${MAY[caller.role]}, not ${what}.`,
    { role: caller.role, needs: need, call: name },
    { action: remedy(caller, need) },
  );
}

/** The calls an observer may make that still ask a unit directly, not the state already read. */
const UNIT_READS: ReadonlySet<CallName> = new Set(['controllers/readAdmin', 'system/tree']);

/**
 * Whether only the service that leads the lab may make this call: every change (any call an observer
 * may not make: switching, reserving, saving, the units' settings) and the reads that ask a unit. A
 * standby answers the other reads from the store.
 */
export function needsTheLead(name: CallName): boolean {
  return CALL_ROLES[name][0] !== 'observer' || UNIT_READS.has(name);
}

/**
 * `handlers` with every call checked against `caller`'s role first, then, for a call only the leader
 * may make, against the leadership (`assertLeads` throws STANDBY on a standby): before any handler
 * runs, so every door gets the same refusal. A refusal of the role or scope is handed to `onRefused`
 * as an activity entry (the Core records it, bounded: activity-refusal-budget.ts) before it is thrown.
 */
export function permittedHandlers(
  handlers: Handlers,
  caller: Caller,
  facts: PermissionFacts,
  assertLeads?: () => void,
  onRefused?: (entry: NewActivity) => void,
): Handlers {
  const checked: Partial<Record<CallName, (input: never) => Promise<unknown>>> = {};
  for (const name of callNames) {
    const handler = handlers[name] as (input: CallParsed<typeof name>) => Promise<unknown>;
    const lead = assertLeads && needsTheLead(name) ? assertLeads : null;
    checked[name] = async (input: CallParsed<typeof name>) => {
      try {
        assertPermitted(name, input, caller, facts);
      } catch (error) {
        if (onRefused && isPlugboardError(error)) onRefused(refusalEntry(name, input, caller, error, facts));
        throw error;
      }
      lead?.();
      return handler(input);
    };
  }
  return checked as Handlers;
}

/**
 * A refused call as the activity log keeps it: an attempt, by the caller (door and who), with the Core's
 * sentence, on the controller (and outlet) it would have touched, else on the lab service.
 */
export function refusalEntry<K extends CallName>(
  name: K,
  input: CallParsed<K>,
  caller: Caller,
  error: PlugboardError,
  facts: ScopeFacts,
): NewActivity {
  const place = touchedPlace(name, input, facts);
  const controller = place && facts.controller(place.controllerId);
  return {
    ...(place && controller
      ? { controllerId: place.controllerId, controllerName: controller.name, outlet: place.outlet }
      : LAB_SERVICE),
    action: `tried to ${CALL_ROLES[name][1]}`,
    actor: { door: caller.door, who: caller.who },
    result: 'error',
    error: error.toContractError(),
  };
}

function subject(caller: Caller): string {
  switch (caller.credential) {
    case 'token':
    case 'legacy-token':
      return `The token "${caller.who}"`;
    case 'none':
      return 'A client without a token';
    default:
      return caller.who;
  }
}

function remedy(caller: Caller, need: Role): string {
  switch (caller.credential) {
    case 'legacy-token':
      return `Its line in the service's token file names no role, so it may only read: write it as ${caller.who}[${need}]:<secret> (the same secret) and restart plugboard serve.`;
    case 'token':
      return `Use a token with the ${need} role, or ask the service's administrator to make its line ${caller.who}[${need}]:<secret>.`;
    case 'none':
      return `Send a token with the ${need} role as "Authorization: Bearer <secret>" (the service reads its tokens from --token-file or the credential plugboard.tokens).`;
    default:
      return `It needs the ${need} role: ask the service's administrator.`;
  }
}

function article(role: Role): string {
  return /^[aeiou]/.test(role) ? 'an' : 'a';
}
