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
 * Shared by both sides: the renderer, the preload and every layer of src-main import this file and
 * model.ts (the top-level layout keeps them here, beside the preload that binds them). They import
 * nothing of Plugboard's but each other; .dependency-cruiser.cjs checks it. See src-preload/README.md.
 */
import * as v from 'valibot';
import type {
  ActivityEntry,
  AppInfo,
  AppSnapshot,
  AutopingItem,
  BulkAddResult,
  ConfirmRequest,
  ControllerState,
  ControllerSummary,
  CsvImportPreview,
  DiscoveryProgress,
  Group,
  GroupRunResult,
  InventoryRow,
  MeterHistory,
  OutletActionResult,
  Reservation,
  Result,
  SequenceRun,
  Settings,
  TreeNode,
} from './model';
import { ACTIVITY_DOORS } from './model';
import { neutraliseText, unsafeCharacterIn } from './words';

export * from './model';

// ---------- building blocks ----------

/**
 * Text people type that Plugboard shows everywhere and matches on (names, aliases, tags, ids): refused
 * when it holds a control or text-direction character, so a name cannot carry a terminal escape, forge
 * a log line or read differently from what it is. Refused rather than cleaned: a name must be exactly
 * what was typed, and two names must not look alike while being different.
 */
const printable = v.check(
  (text: string) => unsafeCharacterIn(text) === null,
  (issue) =>
    `contains ${unsafeCharacterIn(String(issue.input)) ?? 'a control character'}: type it without control characters or text-direction marks`,
);

/**
 * Free prose (a reservation's reason): cleaned instead of refused. A reason pasted from a ticket may hold
 * a line break or a tab; as spaces it means the same, and it can no longer carry anything else.
 */
const prose = (max: number) =>
  v.pipe(
    v.string(),
    v.transform((text: string) => neutraliseText(text, max * 4)),
    v.trim(),
    v.minLength(1, 'give a reason'),
    v.maxLength(max, 'is too long'),
  );

const id = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is too long'),
  printable,
);
const controllerId = id;

/** An outlet number as printed on the hardware: 1, 2, … (the controller reports how many). */
export const outletNumber = v.pipe(
  v.number('must be an outlet number'),
  v.integer('must be a whole outlet number'),
  v.minValue(1, 'outlets are numbered from 1'),
  v.maxValue(64, 'no controller has that many outlets'),
);

/** A cycle off-time in whole seconds (outlet or relay): 1 s to an hour. */
const cycleDelaySeconds = v.pipe(
  v.number('must be a number of seconds'),
  v.integer('must be whole seconds'),
  v.minValue(1, 'must be at least 1 second'),
  v.maxValue(3600, 'must be at most 3600 seconds (an hour)'),
);

export const outletSelection = v.union(
  [
    v.literal('all'),
    v.pipe(v.array(outletNumber), v.minLength(1, 'select at least one outlet'), v.maxLength(64)),
  ],
  'must be "all" or a list of outlet numbers',
);

/** `http://host[:port]` or `https://…`; a path, if any, is ignored by the client. */
export const controllerUrl = v.pipe(
  v.string(),
  v.trim(),
  v.url('must be an address like http://192.168.0.100'),
  v.check((s) => /^https?:\/\//i.test(s), 'must start with http:// or https://'),
  v.maxLength(2048),
);

export const fingerprint = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/, 'must be a SHA-256 fingerprint (64 hex digits)'),
);

const name = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is longer than 64 characters'),
  printable,
);
const secret = v.pipe(v.string(), v.minLength(1, 'is empty'), v.maxLength(256, 'is too long'));
const userName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is too long'),
  v.regex(/^[^\s:]+$/, 'may not contain spaces or colons'),
  printable,
);
const colour = v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #3b82f6'));

/** A controller's alias for pdudaemon's `hostname` (issue 15): one word, no spaces. */
export const controllerAlias = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is longer than 64 characters'),
  v.regex(/^[^\s]+$/, 'may not contain spaces (pdudaemon clients split on them)'),
  printable,
);
/**
 * A controller's tags (issue 16): where it is and what it is for ("rack 7", "bench", "ci"), shown and
 * filtered in the sidebar and Overview. Each 1–40 characters without commas or semicolons (a CSV
 * import separates tags with ";"); at most 16 per controller, duplicates (any case) removed.
 */
export const MAX_CONTROLLER_TAGS = 16;
export const controllerTag = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(40, 'is longer than 40 characters'),
  v.regex(/^[^,;]+$/, 'may not contain commas or semicolons'),
  printable,
);
export const controllerTags = v.pipe(
  v.array(controllerTag),
  v.maxLength(MAX_CONTROLLER_TAGS, `has more than ${MAX_CONTROLLER_TAGS} tags`),
);
/** The longest wait `outlets/cycle` accepts between switching off and on again, seconds (issue 15). */
export const MAX_CYCLE_WAIT_SECONDS = 300;
/** pdudaemon's reboot delay: whole seconds 0–300 between Plugboard switching an outlet off and on. */
const cycleWaitSeconds = v.pipe(
  v.number('must be a number of seconds'),
  v.integer('must be whole seconds'),
  v.minValue(0, 'must be 0 seconds or more'),
  v.maxValue(MAX_CYCLE_WAIT_SECONDS, `must be at most ${MAX_CYCLE_WAIT_SECONDS} seconds`),
);

export const authInput = v.variant('kind', [
  v.strictObject({ kind: v.literal('digest'), user: userName, password: v.optional(secret) }),
  v.strictObject({ kind: v.literal('basic'), user: userName, password: v.optional(secret) }),
  v.strictObject({ kind: v.literal('token'), token: v.optional(secret) }),
]);

const outletRef = v.strictObject({ controllerId, outlet: outletNumber });
const empty = v.strictObject({});
const onController = v.strictObject({ controllerId });

/** Lua identifier: the only thing that may name a user function. */
const functionName = v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'is not a function name'));
const scriptArg = v.union(
  [
    v.pipe(v.number(), v.finite('must be a finite number')),
    v.pipe(v.string(), v.maxLength(256)),
    v.boolean(),
  ],
  'must be a number, text or true/false',
);

const settingsInput = v.strictObject({
  pollIntervalMs: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(500, 'must be at least 500 ms'),
      v.maxValue(600_000, 'must be at most 10 minutes'),
    ),
  ),
  temperatureUnit: v.optional(v.picklist(['C', 'F'])),
  theme: v.optional(v.picklist(['system', 'light', 'dark'])),
  notifications: v.optional(
    v.strictObject({ offline: v.boolean(), outsideChanges: v.boolean(), meterThresholds: v.boolean() }),
  ),
  meterThresholds: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          controllerId,
          key: v.pipe(v.string(), v.minLength(1), v.maxLength(128), printable),
          min: v.nullable(v.pipe(v.number(), v.finite())),
          max: v.nullable(v.pipe(v.number(), v.finite())),
        }),
      ),
      v.maxLength(500),
    ),
  ),
  trayFavourites: v.optional(v.pipe(v.array(outletRef), v.maxLength(64))),
  startAtLogin: v.optional(v.boolean()),
  overviewCompact: v.optional(v.boolean()),
});

/** AutoPing (issue 14 item 5): an item's 1-based number and its editable fields (outlets 1-based). */
const autopingNumber = v.pipe(
  v.number('must be an item number'),
  v.integer('must be a whole item number'),
  v.minValue(1, 'items are numbered from 1'),
  v.maxValue(1000),
);
const autopingItemInput = v.strictObject({
  addresses: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/, 'must be a host name or IP address'),
      ),
    ),
    v.minLength(1, 'give at least one address to ping'),
    v.maxLength(8, 'at most 8 addresses'),
  ),
  outlets: v.pipe(v.array(outletNumber), v.maxLength(64)),
  enabled: v.boolean(),
  pingsBeforeEnabling: v.nullable(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(1000)),
  ),
  resumptionTrial: v.boolean(),
  script: v.pipe(v.string(), v.maxLength(64, 'is at most 64 characters'), printable),
});

/** Reservations (issue 15 part 4): what one covers, and its longest span. */
export const RESERVATION_MAX_MS = 30 * 24 * 3600_000;
const reservationTarget = v.variant('kind', [
  v.strictObject({ kind: v.literal('outlet'), controllerId, outlet: outletNumber }),
  v.strictObject({ kind: v.literal('group'), groupId: id }),
  v.strictObject({ kind: v.literal('controller'), controllerId }),
]);

/** Sequences (issue 16 item 10): one step = one or several outlets of one controller, then a wait. */
const sequenceStep = v.strictObject({
  controllerId,
  outlets: v.pipe(v.array(outletNumber), v.minLength(1, 'give each step an outlet'), v.maxLength(64)),
  wait: v.variant('kind', [
    v.strictObject({
      kind: v.literal('delay'),
      seconds: v.pipe(
        v.number('must be a number of seconds'),
        v.integer('must be whole seconds'),
        v.minValue(0, 'must not be negative'),
        v.maxValue(3600, 'must be at most 3600 seconds (an hour)'),
      ),
    }),
    v.strictObject({ kind: v.literal('confirmed'), timeoutSeconds: cycleDelaySeconds }),
  ]),
});
/**
 * Activity filters (issue 16 item 12), shared by `activity/list` and `activity/export`: one controller,
 * outlet number or outlet name (case-insensitive, as recorded at the time), person (`who`,
 * case-insensitive), door, and a time span [`since`, `until`] in epoch ms.
 */
const activityFilter = {
  controllerId: v.optional(controllerId),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  outlet: v.optional(outletNumber),
  outletName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), printable)),
  who: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), printable)),
  door: v.optional(v.picklist(ACTIVITY_DOORS)),
  since: v.optional(v.pipe(v.number(), v.finite())),
  until: v.optional(v.pipe(v.number(), v.finite())),
};

// ---------- calls ----------

interface CallSpec<I extends v.GenericSchema, R> {
  input: I;
  /** Phantom: carries the result type only. */
  result: R;
}
function call<I extends v.GenericSchema>(input: I) {
  return { returns: <R>(): CallSpec<I, R> => ({ input, result: undefined as R }) };
}

export const calls = {
  /** Name, version and shell of the running app. */
  'app/info': call(empty).returns<AppInfo>(),
  /** Everything to draw the window at start: controllers, their live state, groups, settings. */
  'app/snapshot': call(empty).returns<AppSnapshot>(),

  /** The saved controllers in their tab order (no secrets). */
  'controllers/list': call(empty).returns<ControllerSummary[]>(),
  /** Verify (identity, firmware, admin, capabilities) and save. TLS_UNTRUSTED carries the fingerprint to accept. */
  'controllers/add': call(
    v.strictObject({
      name: v.optional(name),
      url: controllerUrl,
      auth: authInput,
      fingerprint: v.optional(fingerprint),
      colour: v.optional(colour),
      alias: v.optional(controllerAlias),
      tags: v.optional(controllerTags),
    }),
  ).returns<ControllerSummary>(),
  /**
   * Change the saved address, name, colour or credentials (omitted password = keep the stored one). A
   * stored secret goes only where it was saved for: a new address, scheme, login method, user or
   * certificate without a new secret needs `reuseSecret: true` (else BAD_INPUT, detail.confirmSecret).
   */
  'controllers/update': call(
    v.strictObject({
      id: controllerId,
      name: v.optional(name),
      url: v.optional(controllerUrl),
      auth: v.optional(authInput),
      fingerprint: v.optional(v.nullable(fingerprint)),
      colour: v.optional(colour),
      /** null removes the alias. */
      alias: v.optional(v.nullable(controllerAlias)),
      /** Replaces every tag; [] removes them. */
      tags: v.optional(controllerTags),
      reuseSecret: v.optional(v.literal(true)),
    }),
  ).returns<ControllerSummary>(),
  /** Forget a controller and its stored secret. */
  'controllers/remove': call(v.strictObject({ id: controllerId })).returns<null>(),
  /** New tab order: the ids given come first in that order, any not named keep theirs after them. */
  'controllers/reorder': call(
    v.strictObject({ ids: v.pipe(v.array(controllerId), v.maxLength(500)) }),
  ).returns<ControllerSummary[]>(),
  /** Poll now. */
  'controllers/refresh': call(v.strictObject({ id: controllerId })).returns<null>(),
  /**
   * Pin a new certificate after TLS_CHANGED, once the person has checked it; the stored secret goes to
   * it only with `reuseSecret: true`, or give the password or token again as `secret`.
   */
  'controllers/trustCertificate': call(
    v.strictObject({
      id: controllerId,
      fingerprint,
      reuseSecret: v.optional(v.literal(true)),
      secret: v.optional(secret),
    }),
  ).returns<ControllerSummary>(),

  /** Start a few in-process emulated controllers, clearly marked as demo. */
  'demo/start': call(empty).returns<ControllerSummary[]>(),
  /** Remove every demo controller and stop its emulator. */
  'demo/remove': call(empty).returns<null>(),

  /**
   * Saved (persistent) or, with `transient`, temporary on/off of one, several or all outlets: one
   * request. Saved: a (matrix) PUT of `state`, per-outlet refusals in `failed`. Temporary on several
   * listed outlets: the unit's simultaneous switch (`set_outlet_transient_states`), all or nothing.
   */
  'outlets/set': call(
    v.strictObject({
      controllerId,
      outlets: outletSelection,
      on: v.boolean(),
      transient: v.optional(v.boolean()),
    }),
  ).returns<OutletActionResult>(),
  /**
   * Power-cycle one outlet (off, wait the cycle delay, on). With `delay` (whole seconds 0–300), Plugboard
   * itself switches it off, waits that long and switches it on, answering after the on (pdudaemon's
   * reboot); a Core that stops meanwhile still switches it back on first.
   */
  'outlets/cycle': call(
    v.strictObject({ controllerId, outlet: outletNumber, delay: v.optional(cycleWaitSeconds) }),
  ).returns<OutletActionResult>(),
  /**
   * Switch several outlets, each to its own state. Temporary (transient states, the default here: the
   * unit's simultaneous switch, as simultaneously as the firmware allows), or with `transient: false`
   * saved (persistent states: one matrix PUT of `state` per target value, at most two requests).
   */
  'outlets/switch': call(
    v.strictObject({
      controllerId,
      changes: v.pipe(
        v.array(v.strictObject({ outlet: outletNumber, on: v.boolean() })),
        v.minLength(1, 'select at least one outlet'),
        v.maxLength(64),
      ),
      transient: v.optional(v.boolean()),
    }),
  ).returns<OutletActionResult>(),
  /** Rename an outlet on the controller itself (administrators only); the new name shows at once. */
  'outlets/rename': call(v.strictObject({ controllerId, outlet: outletNumber, name })).returns<null>(),
  /**
   * Change an outlet's own settings on the controller (administrators only): `cycleDelay` in whole
   * seconds (1–3600; null = use the relay's cycle delay) and `critical` (the tray then asks before
   * switching it off or cycling it). What is left out stays; the new values show at once.
   */
  'outlets/configure': call(
    v.strictObject({
      controllerId,
      outlet: outletNumber,
      cycleDelay: v.optional(v.nullable(cycleDelaySeconds)),
      critical: v.optional(v.boolean()),
    }),
  ).returns<null>(),

  /** Start a user function; arguments are typed values, never code. Returns the thread id. */
  'scripts/start': call(
    v.strictObject({
      controllerId,
      function: functionName,
      args: v.pipe(v.array(scriptArg), v.maxLength(16)),
    }),
  ).returns<{ threadId: string }>(),
  /** Stop the given script threads, or `'all'` of them; recorded in the activity log. */
  'scripts/stop': call(
    v.strictObject({
      controllerId,
      threads: v.union([
        v.literal('all'),
        v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(32))), v.minLength(1)),
      ]),
    }),
  ).returns<null>(),

  /**
   * Add a user to the controller (administrators only). `outletAccess[i]` says whether it may switch
   * outlet i + 1; outlets not named are refused to it.
   */
  'users/create': call(
    v.strictObject({
      controllerId,
      name: userName,
      password: secret,
      isAdmin: v.boolean(),
      isAllowed: v.boolean(),
      outletAccess: v.pipe(v.array(v.boolean()), v.maxLength(64)),
    }),
  ).returns<null>(),
  /** Delete a user from the controller (administrators only). */
  /**
   * Delete a user from the controller (administrators only). Deleting the user Plugboard itself logs in
   * as is refused (BAD_INPUT, detail.confirmOwnUser) unless `confirmOwnUser` is true.
   */
  'users/delete': call(
    v.strictObject({ controllerId, name: userName, confirmOwnUser: v.optional(v.boolean()) }),
  ).returns<null>(),

  /** Switch the controller's SSH server on or off (administrators only). */
  'system/setSsh': call(v.strictObject({ controllerId, enabled: v.boolean() })).returns<null>(),
  /**
   * Change the relay's timing (administrators only), in whole seconds: the default `cycleDelay` (1–3600)
   * and the on-sequence `sequenceDelay` (0–60). What is left out stays; the state's `relayTiming` is read
   * again afterwards.
   */
  'system/setRelayTiming': call(
    v.strictObject({
      controllerId,
      cycleDelay: v.optional(cycleDelaySeconds),
      sequenceDelay: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60))),
    }),
  ).returns<null>(),
  /** Reboot; the state goes `rebooting` until the controller answers again. */
  'system/reboot': call(onController).returns<null>(),
  /** Browse the API tree: `path` below `/restapi/`, depth-limited. */
  'system/tree': call(
    v.strictObject({
      controllerId,
      path: v.pipe(v.string(), v.maxLength(512), v.regex(/^[^?#]*$/, 'may not contain ? or #')),
      depth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8)),
    }),
  ).returns<TreeNode>(),

  /** The recorded readings of one meter (`key` as in `MeterReading.key`); NOT_FOUND when none were recorded. */
  'meters/history': call(
    v.strictObject({ controllerId, key: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) }),
  ).returns<MeterHistory>(),
  /** All meter history of a controller as CSV text (the UI saves it). */
  'meters/exportCsv': call(onController).returns<{ filename: string; csv: string }>(),

  /** AutoPing's items on a controller with their status; UNSUPPORTED_FIRMWARE when it has no AutoPing. */
  'autoping/list': call(onController).returns<AutopingItem[]>(),
  /**
   * Create an AutoPing item (no `number`) or replace item `number` (1-based, as listed); answers with
   * the list afterwards. Enabling or disabling is a save with `enabled` changed. Administrators only.
   */
  'autoping/save': call(
    v.strictObject({
      controllerId,
      number: v.optional(autopingNumber),
      item: autopingItemInput,
    }),
  ).returns<AutopingItem[]>(),
  /** Delete AutoPing item `number` (1-based); the items after it move up. Answers with the list afterwards. */
  'autoping/remove': call(v.strictObject({ controllerId, number: autopingNumber })).returns<AutopingItem[]>(),

  /** Every outlet group, in the order saved. */
  'groups/list': call(empty).returns<Group[]>(),
  /** Create (no id) or replace a group. */
  'groups/save': call(
    v.strictObject({
      id: v.optional(id),
      name,
      members: v.pipe(v.array(outletRef), v.minLength(1, 'add at least one outlet'), v.maxLength(256)),
    }),
  ).returns<Group>(),
  /** Delete a group; its outlets and controllers stay as they are. */
  'groups/remove': call(v.strictObject({ id })).returns<null>(),
  /** On/off/cycle every outlet of a group: one request per controller, all controllers in parallel. */
  'groups/run': call(
    v.strictObject({ id, action: v.picklist(['on', 'off', 'cycle']) }),
  ).returns<GroupRunResult>(),

  /**
   * The activity log, newest first: all controllers or one, at most `limit` entries (default: all kept);
   * optionally only one outlet (number or name), one person (`who`, case-insensitive), one door, or a
   * time span (`since`, `until`, epoch ms).
   */
  'activity/list': call(v.strictObject(activityFilter)).returns<ActivityEntry[]>(),

  /** The app's settings. */
  'settings/get': call(empty).returns<Settings>(),
  /** Change some settings (only the fields given); returns all of them as saved. */
  'settings/set': call(settingsInput).returns<Settings>(),

  /** Look for controllers: mDNS, SSDP and/or a bounded address range (≤ 256 addresses). Progress comes as events. */
  'discovery/start': call(
    v.strictObject({
      mdns: v.boolean(),
      ssdp: v.boolean(),
      range: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    }),
  ).returns<{ runId: string }>(),
  /** Stop a discovery run; what it found so far stays in its last progress event. */
  'discovery/stop': call(v.strictObject({ runId: id })).returns<null>(),

  // Reservations (issue 15 part 4): enforced in the Core before any switch is queued.
  /** Every current reservation (expired ones are gone), soonest expiry first. */
  'reservations/list': call(empty).returns<Reservation[]>(),
  /**
   * Reserve an outlet, a group or a controller for `durationMs` (1 minute to 30 days) or `until` (epoch
   * ms, at most 30 days ahead: BAD_INPUT beyond). RESERVED when someone else holds anything it overlaps;
   * the holder may take more. The reason's control characters become spaces (it is prose).
   */
  'reservations/take': call(
    v.pipe(
      v.strictObject({
        target: reservationTarget,
        reason: prose(200),
        durationMs: v.optional(
          v.pipe(
            v.number(),
            v.integer(),
            v.minValue(60_000, 'must be at least a minute'),
            v.maxValue(RESERVATION_MAX_MS, 'must be at most 30 days'),
          ),
        ),
        until: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      }),
      v.check(
        (input) => (input.durationMs === undefined) !== (input.until === undefined),
        'give either durationMs or until',
      ),
    ),
  ).returns<Reservation>(),
  /** End your own reservation (RESERVED if someone else holds it: break it instead). */
  'reservations/release': call(v.strictObject({ id })).returns<null>(),
  /** Who reservations taken through this door are held as (the window tells its own from others'). */
  'reservations/holder': call(empty).returns<{ holder: string }>(),
  /** End anyone's reservation, explicitly and with a reason; logged as yours. */
  'reservations/break': call(
    v.strictObject({
      id,
      reason: prose(200),
    }),
  ).returns<null>(),
  /** Every meter now outside its saved limits (issue 16 item 11); `meters/breaches` events follow changes. */
  'meters/breaches': call(empty).returns<import('./model').LimitBreach[]>(),

  // Sequences (issue 16 item 10): a group switched step by step, with a live timeline and Abort.
  /** Create (no id) or replace a group as a sequence: ordered steps (`groups/save` makes it a plain group again). */
  'sequences/save': call(
    v.strictObject({
      id: v.optional(id),
      name,
      steps: v.pipe(v.array(sequenceStep), v.minLength(1, 'add at least one step'), v.maxLength(256)),
    }),
  ).returns<Group>(),
  /**
   * Start a sequence: its steps in order for on, in reverse for off. Refused whole (nothing switched) when
   * someone else reserved any step's outlets, or, for off, when a step has a critical outlet and
   * `confirmCritical` is not true. Progress comes as `sequence/progress`. Same as `groups/run` on a sequence.
   */
  'sequences/run': call(
    v.strictObject({ id, action: v.picklist(['on', 'off']), confirmCritical: v.optional(v.boolean()) }),
  ).returns<{ runId: string }>(),
  /** Stop a run before its next step (steps done stay done); answers with the run as it ended. */
  'sequences/abort': call(v.strictObject({ runId: id })).returns<SequenceRun>(),
  /** Runs going on, and runs that stopped short (aborted, failed, stopped at quit or killed) not yet dismissed. */
  'sequences/runs': call(empty).returns<SequenceRun[]>(),
  /** Forget an ended run (the window showed where it stopped). */
  'sequences/dismiss': call(v.strictObject({ runId: id })).returns<null>(),

  // ---------- bulk add and CSV import (issue 16 item 7) ----------
  /**
   * Verify and save many controllers with one set of credentials, at most 8 at a time; one result per
   * unit in the order given. Each unit is saved with its secret, bound to its own address and login, or
   * not at all. The secrets go only to the units listed: a unit with its own `user` logs in with
   * `passwords[user]` (or auth's password when it is auth's user). A unit refused with TLS_UNTRUSTED
   * carries detail.fingerprint: give it back as the unit's `fingerprint` to accept it.
   */
  'controllers/addMany': call(
    v.strictObject({
      units: v.pipe(
        v.array(
          v.strictObject({
            url: controllerUrl,
            name: v.optional(name),
            user: v.optional(userName),
            tags: v.optional(controllerTags),
            fingerprint: v.optional(fingerprint),
          }),
        ),
        v.minLength(1, 'select at least one controller'),
        v.maxLength(256, 'has more than 256 controllers (MAX_BULK_UNITS)'),
      ),
      auth: authInput,
      passwords: v.optional(v.record(userName, secret)),
      /** Name this run: `controllers/addManyProgress` events carrying it count the units checked. */
      progressId: v.optional(id),
    }),
  ).returns<BulkAddResult[]>(),
  /**
   * Read a CSV file's text (columns name, address, user, tags, fingerprint; a header row first) into the
   * rows to add, each with its problems. Nothing is saved. A password, secret or token column is refused.
   */
  'controllers/importPreview': call(
    v.strictObject({ text: v.pipe(v.string(), v.maxLength(1_000_000, 'is larger than 1 MB')) }),
  ).returns<CsvImportPreview>(),

  // Fleet inventory and activity export (issue 16 items 9 and 12).
  /**
   * One row per saved controller: model, serial, firmware, relay firmware, SSH, user count, outlets on,
   * last seen, and drift (a newer firmware seen on the same model). Answers at once with what is known
   * (offline controllers: their last known values, `stale`); users and SSH not read yet are read in the
   * background (a few controllers at a time) and arrive as `state/changed`. `wait`: first connect every
   * controller and read what is missing (the CLI), bounded by `timeoutMs` (default 20 s).
   */
  'fleet/inventory': call(
    v.strictObject({
      wait: v.optional(v.boolean()),
      timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(120_000))),
    }),
  ).returns<InventoryRow[]>(),
  /** The inventory as CSV (RFC 4180, times in UTC, formula-safe cells), with a file name to save it as. */
  'fleet/inventoryCsv': call(empty).returns<{ filename: string; text: string }>(),
  /** The activity log (filtered as `activity/list`, oldest first) as CSV or JSON lines, with a file name. */
  'activity/export': call(
    v.strictObject({ ...activityFilter, format: v.picklist(['csv', 'jsonl']) }),
  ).returns<{ filename: string; text: string }>(),

  // Credentials (issue 16 items 4 and 13): the password-needed prompt, where a secret lives, editing users.
  /**
   * Give the password of `user` to every controller that needs one and logs in as that user (or only
   * `ids`). It is checked against each first; `remember` keeps it in the keychain (when there is one),
   * otherwise it lasts until Plugboard stops. One result per controller; `ok: false` ones still need it.
   */
  'controllers/providePassword': call(
    v.strictObject({
      user: userName,
      password: secret,
      ids: v.optional(v.pipe(v.array(controllerId), v.minLength(1), v.maxLength(1000))),
      remember: v.boolean(),
    }),
  ).returns<{ results: { id: string; name: string; ok: boolean; message: string | null }[] }>(),
  /**
   * Where a saved controller's secret lives now: the system keychain, this session only (no keychain,
   * or not remembered), missing (needs one), or none (the controller was saved without one).
   */
  'controllers/secretWhere': call(onController).returns<{
    where: 'keychain' | 'session' | 'missing' | 'none';
  }>(),
  /**
   * Change a user (administrators only): only the fields given. Disallowing the user Plugboard logs in
   * as is refused (BAD_INPUT, detail.confirmOwnUser) unless `confirmOwnUser`. A new password for that user
   * is saved in the keychain too, after the controller accepted it; `warning` says when that
   * keychain write failed (the controller has the new password) and what to do.
   */
  'users/update': call(
    v.strictObject({
      controllerId,
      name: userName,
      password: v.optional(secret),
      isAdmin: v.optional(v.boolean()),
      isAllowed: v.optional(v.boolean()),
      outletAccess: v.optional(v.pipe(v.array(v.boolean()), v.maxLength(64))),
      /** Needed to stop the user Plugboard logs in as from logging in (`isAllowed: false`). */
      confirmOwnUser: v.optional(v.boolean()),
    }),
  ).returns<{ warning: string | null }>(),
} as const;

// ---------- events ----------

function event<P>(): P {
  return undefined as P;
}

export const events = {
  /** The saved controllers changed (added, removed, renamed, reordered). */
  'controllers/changed': event<ControllerSummary[]>(),
  /** One controller's live state changed; the whole state is sent. */
  'state/changed': event<ControllerState>(),
  /** A new entry in the activity log (an action, its result, or a change seen on a controller). */
  'activity/added': event<ActivityEntry>(),
  /** The groups changed; all of them are sent. */
  'groups/changed': event<Group[]>(),
  /** The settings changed; all of them are sent. */
  'settings/changed': event<Settings>(),
  /** A discovery run found something or probed further; `done` marks its last event. */
  'discovery/progress': event<DiscoveryProgress>(),
  /** The tray wants the window to confirm an action on critical outlets. */
  'ui/confirm': event<ConfirmRequest>(),
  /** The reservations changed (taken, released, broken, expired, or changed by another process); all current ones are sent. */
  'reservations/changed': event<Reservation[]>(),
  /** The meters outside their limits changed (a breach began, ended, or its reading moved); all current ones are sent. */
  'meters/breaches': event<import('./model').LimitBreach[]>(),
  /** A bulk add given a `progressId` checked one more unit (added or refused): how many of how many. */
  'controllers/addManyProgress': event<{ progressId: string; checked: number; total: number }>(),
  /** A sequence run changed (a step started, was confirmed, failed, a wait began, the run ended); the whole run is sent. */
  'sequence/progress': event<SequenceRun>(),
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
