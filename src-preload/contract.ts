/**
 * THE contract between the window and the main process.
 *
 * - `calls`: renderer → main, answered with `Result<T>`. Names are `domain/action`; one object argument,
 *   validated in main with the schema given here (valibot). Both shells bind this map generically.
 * - `events`: main → renderer, pushed; the UI never polls.
 *
 * Outlet numbers are 1-based everywhere in the contract (as on the hardware label).
 * Secrets travel only towards main: the UI can set a password or token, never read one.
 *
 * The calls are kept by domain, in the order of the window: one file each in contract/ (the building
 * blocks they share in contract/blocks.ts), assembled here. Nothing else of the contract lives there.
 *
 * Shared by both sides: the renderer, the preload and every layer of src-main import this file and
 * model.ts (the top-level layout keeps them here, beside the preload that binds them). They import
 * nothing of Plugboard's but each other and contract/; .dependency-cruiser.cjs checks it. See
 * src-preload/README.md.
 */
import * as v from 'valibot';
import type {
  ActivityEntry,
  ConfirmRequest,
  ControllerState,
  ControllerSummary,
  DiscoveryProgress,
  Group,
  LabEvent,
  LabSummary,
  LimitBreach,
  Reservation,
  Result,
  SequenceRun,
  Settings,
} from './model';
import { appCalls } from './contract/app';
import { controllerCalls } from './contract/controllers';
import { outletCalls } from './contract/outlets';
import { scriptCalls } from './contract/scripts';
import { meterCalls } from './contract/meters';
import { userCalls } from './contract/users';
import { autopingCalls } from './contract/autoping';
import { systemCalls } from './contract/system';
import { groupCalls } from './contract/groups';
import { sequenceCalls } from './contract/sequences';
import { reservationCalls } from './contract/reservations';
import { fleetCalls } from './contract/fleet';
import { discoveryCalls } from './contract/discovery';
import { demoCalls } from './contract/demo';
import { activityCalls } from './contract/activity';
import { settingsCalls } from './contract/settings';
import { accountCalls } from './contract/accounts';
import { labCalls } from './contract/labs';

export * from './model';
export {
  authInput,
  controllerAlias,
  controllerTag,
  controllerTags,
  controllerUrl,
  fingerprint,
  MAX_CONTROLLER_TAGS,
  MAX_CYCLE_WAIT_SECONDS,
  outletNumber,
  outletSelection,
} from './contract/blocks';
export { RESERVATION_MAX_MS } from './contract/reservations';
export { serviceAddress } from './contract/labs';

// ---------- calls ----------

/** Every call, by domain in the order of the window (its sidebar, then a controller's tabs, then the pages). */
export const calls = {
  ...appCalls,
  ...controllerCalls,
  ...outletCalls,
  ...scriptCalls,
  ...meterCalls,
  ...userCalls,
  ...autopingCalls,
  ...systemCalls,
  ...groupCalls,
  ...sequenceCalls,
  ...reservationCalls,
  ...fleetCalls,
  ...discoveryCalls,
  ...demoCalls,
  ...activityCalls,
  ...settingsCalls,
  ...accountCalls,
  ...labCalls,
} as const;

// ---------- events ----------

function event<P>(): P {
  return undefined as P;
}

/** Every event, by domain in the order of the window; `ui/confirm` asks the window itself. */
export const events = {
  /** The saved controllers changed (added, removed, renamed, reordered). */
  'controllers/changed': event<ControllerSummary[]>(),
  /** A bulk add given a `progressId` checked one more unit (added or refused): how many of how many. */
  'controllers/addManyProgress': event<{ progressId: string; checked: number; total: number }>(),
  /** One controller's live state changed; the whole state is sent. */
  'state/changed': event<ControllerState>(),
  /** The meters outside their limits changed (a breach began, ended, or its reading moved); all current ones are sent. */
  'meters/breaches': event<LimitBreach[]>(),
  /** The groups changed; all of them are sent. */
  'groups/changed': event<Group[]>(),
  /** A sequence run changed (a step started, was confirmed, failed, a wait began, the run ended); the whole run is sent. */
  'sequence/progress': event<SequenceRun>(),
  /** The reservations changed (taken, released, broken, expired, or changed by another process); all current ones are sent. */
  'reservations/changed': event<Reservation[]>(),
  /** A discovery run found something or probed further; `done` marks its last event. */
  'discovery/progress': event<DiscoveryProgress>(),
  /** A new entry in the activity log (an action, its result, or a change seen on a controller). */
  'activity/added': event<ActivityEntry>(),
  /** The settings changed; all of them are sent. */
  'settings/changed': event<Settings>(),
  /** The labs this desk attaches to changed (added, removed, signed in or out, online, offline); all are sent. */
  'labs/changed': event<LabSummary[]>(),
  /** An event of a lab's Core (its `name` is one of these events), passed on by the desk. */
  'labs/event': event<LabEvent>(),
  /** The tray wants the window to confirm an action on critical outlets. */
  'ui/confirm': event<ConfirmRequest>(),
} as const;

// ---------- derived types ----------

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<K extends CallName> = v.InferInput<Calls[K]['input']>;
/** Input after validation and trimming, as the Core receives it. */
export type CallParsed<K extends CallName> = v.InferOutput<Calls[K]['input']>;
export type CallResult<K extends CallName> = Calls[K]['result'];

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<K extends EventName> = Events[K];

export const callNames = Object.keys(calls) as CallName[];
export const eventNames = Object.keys(events) as EventName[];

/** What the Core implements: one async function per call. Errors are thrown as `PlugboardError`. */
export type Handlers = { [K in CallName]: (input: CallParsed<K>) => Promise<CallResult<K>> };

/** The `labs/*` calls: a desk answers them with its labs, any other Core refuses them. */
export type LabHandlers = Pick<Handlers, keyof typeof labCalls>;

/** Where the Core pushes events; each shell forwards them to its window(s). */
export type EventSink = <K extends EventName>(name: K, payload: EventPayload<K>) => void;

// ---------- the window API ----------

type Domain<K> = K extends `${infer D}/${string}` ? D : never;
type Action<K, D extends string> = K extends `${D}/${infer A}` ? A : never;

/** `window.plugboard`: `plugboard.outlets.set({...})`, `plugboard.on('state/changed', fn)`. */
export type PlugboardApi = {
  [D in Domain<CallName>]: {
    [K in CallName as Action<K, D>]: (input: CallInput<K>) => Promise<Result<CallResult<K>>>;
  };
} & {
  /** Listen to an event; returns the function that stops listening. */
  on<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void): () => void;
};

/** Split `domain/action` for building the nested window API. */
export function splitCallName(name: CallName): [string, string] {
  const slash = name.indexOf('/');
  return [name.slice(0, slash), name.slice(slash + 1)];
}

/** Validate a call's input; the message names each wrong field. */
export function parseInput<K extends CallName>(
  name: K,
  input: unknown,
): { ok: true; value: CallParsed<K> } | { ok: false; message: string } {
  // Every call takes one object; valibot's object schemas would take an array for one.
  if (Array.isArray(input) || (input !== undefined && input !== null && typeof input !== 'object'))
    return {
      ok: false,
      message: `Invalid input for ${name}: give an object ({…}), not ${Array.isArray(input) ? 'an array' : `a ${typeof input}`}.`,
    };
  const parsed = v.safeParse(calls[name].input, input ?? {});
  if (parsed.success) return { ok: true, value: parsed.output as CallParsed<K> };
  const parts = parsed.issues.slice(0, 5).map((issue) => {
    const path = v.getDotPath(issue);
    return path ? `${path} ${issue.message}` : issue.message;
  });
  return { ok: false, message: `Invalid input for ${name}: ${parts.join('; ')}.` };
}
