import type { AppInfo, ConfirmRequest, EventSink, Handlers } from '../../src-preload/contract';
import type { ActivityDoor, Actor, AuthKind, Caller, ControllerSummary } from '../../src-preload/model';
import { userInfo } from 'node:os';
import { DiscoveryService, type DiscoveryTuning } from '../discovery/discovery-service';
import { keepingOf, MemorySecretStore, type SecretStore } from '../secrets';
import { join } from 'node:path';
import { ActivityLog } from './activity/activity-log';
import { RefusalBudget } from './activity/activity-refusal-budget';
import { answeringWhenKept } from './activity/activity-answers';
import { ACTIVITY_FILE } from './activity/activity-import';
import type { LabRecords } from './flows/lab-records';
import { recoverInterrupted, type Interrupted, type TakingOver } from './flows/interrupted';
import { startRetention } from './activity/activity-retention';
import { systemClock, type Clock } from './kernel/clock';
import type { CoreContext } from './flows/core-context';
import { consoleLogger, type Logger } from '../shared/logging';
import { EventHub } from './kernel/event-hub';
import { activityHandlers } from './handlers/activity';
import { appHandlers } from './handlers/app';
import { autopingHandlers } from './handlers/autoping';
import { demoHandlers } from './handlers/demo';
import { discoveryHandlers } from './handlers/discovery';
import { groupHandlers } from './handlers/groups';
import { settingsHandlers } from './handlers/settings';
import { controllerHandlers } from './handlers/controllers';
import { meterHandlers } from './handlers/meters';
import { outletHandlers } from './handlers/outlets';
import { scriptHandlers } from './handlers/scripts';
import { systemHandlers } from './handlers/system';
import { userHandlers } from './handlers/users';
import { NotificationDecider, type Notice } from './session/notifications';
import { Operations } from './actions/operations';
import { NO_PROMISES } from './actions/promised-switches';
import { DEFAULT_TIMING, type PollTiming } from './session/poll-policy';
import { MemoryStore, type KeyValueStore } from './kernel/ports';
import { ControllerRegistry } from './saved/registry';
import { followExternalChange } from './session/registry-follow';
import { SessionManager } from './session/sessions';
import { meterLimitCarrier } from './meters/meter-ids';
import { SettingsStore } from './saved/settings';
import { createReservations } from './reservations/reservations-wiring';
import { reservationHandlers } from './handlers/reservations';
import { accountHandlers } from './handlers/accounts';
import { labHandlers } from './handlers/labs';
import { Accounts } from './accounts/accounts';
import { recordSignIn } from './flows/sign-in-log';
import { startLimitWatch } from './meters/meter-limits-wiring';
import { Sequences } from './sequences/sequences';
import { startFleet } from './fleet/fleet-wiring';
import { fleetHandlers } from './handlers/fleet';
import { sequenceHandlers } from './handlers/sequences';
import { SessionSecrets } from './saved/credentials-session';
import { permissionFacts, permittedHandlers } from './handlers/permissions';
import type { Leadership } from './database/leadership';
import { followLeadership } from './flows/leadership-wiring';
import { unitMessages, type UnitMessage } from './flows/unit-messages';

/*
 * The Core's public surface (with saved-core.ts and config.ts: .dependency-cruiser.cjs, core-surface):
 * besides createCore, what the doors use of it — the dispatcher every binding shares, the ports a Core is
 * given, the files it keeps in the config folder, the tray's menu and the exports the command line prints.
 */
export type { Notice } from './session/notifications';
export type { PollTiming } from './session/poll-policy';
export { dispatch } from './handlers/dispatch';
export { scopeWords } from './handlers/scopes';
export { systemClock, type Clock, type TimerHandle } from './kernel/clock';
export { MemoryStore, type KeyValueStore } from './kernel/ports';
export { INVENTORY_FILE } from './fleet/fleet-wiring';
export { SEQUENCE_RUNS_DIR } from './sequences/sequence-file';
export { activityCsv, activityCsvPage } from './activity/activity-export';
export { inventoryCsv } from './fleet/inventory-rows';
export {
  buildTrayMenu,
  trayIconState,
  trayToolTip,
  type TrayAction,
  type TrayIconState,
  type TrayMenuItem,
  type TrayState,
  type TrayLab,
} from './tray/tray-menu';

export { ACTIVITY_FILE } from './activity/activity-import';
export type { LabRecords } from './flows/lab-records';

/*
 * The lab store's openers are loaded when called: a one-off Core (a command given the address of a
 * controller nobody saved) never opens a store, and the query layer (kysely) is a fifth of what a command
 * would load at start.
 */
/** Open the lab store for a config folder (flows/lab-records.ts). */
export async function openLabRecords(
  ...args: Parameters<typeof import('./flows/lab-records').openLabRecords>
): ReturnType<typeof import('./flows/lab-records').openLabRecords> {
  return (await import('./flows/lab-records')).openLabRecords(...args);
}

/** Where a Core keeps the lab's configuration (flows/lab-config-move.ts). */
export async function openConfigStore(
  ...args: Parameters<typeof import('./flows/lab-config-move').openConfigStore>
): ReturnType<typeof import('./flows/lab-config-move').openConfigStore> {
  return (await import('./flows/lab-config-move')).openConfigStore(...args);
}
export type { Interrupted, TakingOver } from './flows/interrupted';
export type { UnitMessage } from './flows/unit-messages';
export {
  LeaseLeadership,
  standbyError,
  type Leadership,
  type LeaseTiming,
  type ServiceName,
} from './database/leadership';
export type { Accounts, SignedIn, SignInResult } from './accounts/accounts';
export type { ProviderIdentity } from './accounts/provider-accounts';
export { SESSION_IDLE_MS, SESSION_MAX_MS } from './accounts/accounts';

export interface CoreOptions {
  shell: AppInfo['shell'];
  version: string;
  /** Saved controllers, groups and settings (electron-store, conf, or memory). */
  store: KeyValueStore;
  /** Passwords and tokens: the OS keychain in the app; memory by default (tests, throwaway runs). */
  secrets?: SecretStore;
  /** The config folder: the activity log is kept there. Absent or null: the log stays in memory. */
  dataDir?: string | null;
  /**
   * The lab store, opened (saved-core.ts, openLabRecords): the activity log is kept there instead of
   * the config folder's file. The Core closes it when it is disposed.
   */
  records?: LabRecords | null;
  /** Delivers native notifications (the Electron shell); absent: notifications are dropped. */
  notify?: (notice: Notice) => void;
  /** Whether the window is showing at start (default true); shells report changes with `setVisible`. */
  visible?: boolean;
  log?: Logger;
  clock?: Clock;
  /** Polling timings (tests and benchmarks); defaults in poll-policy.ts. */
  timing?: Partial<PollTiming>;
  discovery?: DiscoveryTuning;
  /** Per-request limit towards controllers, ms (default 10 s). */
  requestTimeoutMs?: number;
  /** Who the window and tray act for in the activity log (default: this process's OS user). */
  user?: string;
  /**
   * Start a controller's session only when a call addresses it, not every saved one at start (a CLI
   * command). Such a short-lived Core also leaves the housekeeping (dropping stale demo controllers,
   * sweeping the keychain) to the long-running one: a running app's demo controllers are not stale.
   */
  lazySessions?: boolean;
  /**
   * Which of the lab's services leads (several on one PostgreSQL store): only the leader polls the units
   * and makes changes; the others answer reads and refuse changes (STANDBY). Absent: this Core leads.
   */
  leadership?: Leadership | null;
}

/** This process's OS user name, or "unknown user" where the system has none for it. */
export function osUserName(): string {
  try {
    return userInfo().username || 'unknown user';
  } catch {
    return 'unknown user';
  }
}

/** The app: implements every call of the contract and pushes events. Knows nothing of its shell. */
export interface Core {
  /** The contract's calls, as the window makes them (recorded as the window's, by this OS user). */
  handlers: Handlers;
  /**
   * The same calls on behalf of another door or person (one handler set per caller, kept), each checked
   * against the caller's role first (permissions.ts). A door alone (`'tray'`, `'web'`) is this OS user
   * at that door, as an administrator: the owner of the config folder.
   */
  handlersAs(caller: Caller | ActivityDoor): Handlers;
  /** Subscribe to events; returns the unsubscribe function. */
  subscribe(sink: EventSink): () => void;
  /**
   * Whether anyone is looking (Electron: the window shown and not minimised; web: a browser connected).
   * Hidden, only what the tray shows is polled: the outlets (and meters a threshold watches).
   */
  setVisible(visible: boolean): void;
  /**
   * Ask the window to confirm an action on critical outlets (pushes `ui/confirm`): the tray's way to get
   * the confirmation the Core wants (CRITICAL_UNCONFIRMED) from a person.
   */
  requestConfirmation(request: ConfirmRequest): void;
  /**
   * The people who sign in to this lab service: password sign-in, and the session a bearer token names
   * (the doors make it a Caller). Null without a lab store (a one-off Core on an unsaved unit).
   */
  accounts: Accounts | null;
  /** Resolves once the saved controllers are being polled (stale demo controllers dropped). */
  ready: Promise<void>;
  dispose(): Promise<void>;
  /**
   * A stop that cannot wait any longer: work the Core promised to finish after a wait (a delayed cycle's
   * switch back on) stops waiting and is done now. `dispose` still finishes it.
   */
  hurry(): void;
  /**
   * This service begins to lead the lab as `takingOver.self`: mark the sequence runs other processes
   * left "running" where they stopped, and report the outlets their delayed cycles left off, replaying
   * nothing (flows/interrupted.ts). Await it before polling or accepting a change. A Core without a lab
   * leadership does the same for this machine's killed processes at start by itself.
   */
  recoverInterrupted(takingOver: TakingOver): Promise<Interrupted>;
  /**
   * A unit published under its saved MQTT topic root (`mqttTopic`): a hint, never the state. The Core
   * reads the outlet it names (with any outlet waiting for confirmation; the whole list when it names none
   * or more than half) at once through the controller's queue — one read running and at most one more
   * asked for, whatever the number of messages — so a pending switch confirms and an outside change shows
   * as soon as that read does. While the unit is heard, its whole outlet list is polled only at the safety
   * interval (`unitSafetyPollMs`). A message for another topic, or an unknown controller, is ignored.
   */
  unitSaid(controllerId: string, message: UnitMessage): void;
  /**
   * A message on the unit's own `…/set` topic: with its "Allow write" on, the unit obeys anyone on the
   * broker past Plugboard's rules. Warns, naming the unit, in the activity log and the log, at most once
   * per unit per hour.
   */
  unitSetSeen(controllerId: string, topic: string): void;
}

export function createCore(options: CoreOptions): Core {
  return assembleCore(options).core;
}

/** A unit a one-off Core works on: what a command line gives for a controller it has not saved. */
export interface EphemeralUnit {
  /** `http[s]://host[:port]`; the unit is named by its host (and port) in every message. */
  url: string;
  auth: AuthKind;
  /** User name for digest or basic; ignored for a token. */
  user: string;
  /** The password or token: kept in this Core's memory only. */
  secret: string;
  /** The certificate to trust (HTTPS), or null. */
  fingerprint: string | null;
}

/**
 * A Core for one command on a unit that is not saved (the command line's `--url`): the unit is a
 * controller of this Core only, its secret in memory, nothing written to the config folder or the
 * keychain, its session started when a call addresses it. It reads the unit's outlets (critical flags
 * included) and answers every call as for a saved controller, so a command has one implementation.
 */
export async function createEphemeralCore(
  options: Omit<CoreOptions, 'store' | 'secrets' | 'dataDir' | 'lazySessions'>,
  unit: EphemeralUnit,
): Promise<{ core: Core; controller: ControllerSummary }> {
  const { core, registry } = assembleCore({
    visible: false,
    ...options,
    store: new MemoryStore(),
    secrets: new MemorySecretStore(),
    dataDir: null,
    lazySessions: true,
  });
  try {
    const controller = await registry.add(
      {
        name: new URL(unit.url).host,
        url: unit.url,
        auth: unit.auth,
        user: unit.user,
        fingerprint: unit.fingerprint,
      },
      unit.secret,
    );
    return { core, controller };
  } catch (error) {
    await core.dispose();
    throw error;
  }
}

function assembleCore(options: CoreOptions): { core: Core; registry: ControllerRegistry } {
  const log = options.log ?? consoleLogger();
  const clock = options.clock ?? systemClock;
  const leadership = options.leadership ?? null;
  const timing: PollTiming = { ...DEFAULT_TIMING, ...options.timing };
  const events = new EventHub(log);
  const secrets = options.secrets ?? new MemorySecretStore();
  let visible = options.visible ?? true;
  const demos: CoreContext['demos'] = new Map();
  const sessionSecrets = new SessionSecrets();

  const registry = new ControllerRegistry({
    store: options.store,
    secrets,
    log,
    onControllersChanged: (list) => events.emit('controllers/changed', list),
    onGroupsChanged: (groups) => events.emit('groups/changed', groups),
    onExternalChange: (change) => followExternal(change),
  });
  const settings = new SettingsStore({
    store: options.store,
    log,
    onChange: (next) => {
      events.emit('settings/changed', next);
      sessions.replanAll();
    },
  });
  const activity = new ActivityLog({
    clock,
    log,
    file: options.dataDir && !options.records ? join(options.dataDir, ACTIVITY_FILE) : null,
    stored: options.records?.activity ?? null,
    persist: (entry) => !demos.has(entry.controllerId),
    onAdded: (entry) => events.emit('activity/added', entry),
  });
  const sessions = new SessionManager({
    clock,
    timing,
    log,
    events,
    activity,
    notices: new NotificationDecider(),
    notify: options.notify ?? (() => undefined),
    settings: () => settings.get(),
    visible: () => visible,
    lazy: options.lazySessions === true,
    summaryOf: (id) => registry.get(id),
    secret: async (summary) => {
      const demo = demos.get(summary.id);
      if (demo) return demo.password;
      const kept = sessionSecrets.get(summary);
      if (kept !== null) return kept;
      // Checked against the place this session sends to, not only the record (registry-envelope.ts).
      return summary.hasSecret ? registry.secretFor(summary.id, summary) : null;
    },
    ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    carryMeterLimits: meterLimitCarrier({
      thresholds: () => settings.get().meterThresholds,
      replaceMeterThresholds: (decide) => settings.replaceMeterThresholds(decide),
      record: (entry) => void activity.add(entry),
      log,
    }),
    mayAct: (controllerId, actor, outlets) => ctx.reservations.assertMayAct(actor, controllerId, outlets),
    ...(leadership ? { beforeWrite: () => leadership.assertMayWrite() } : {}),
  });
  const unfollowLeadership = leadership
    ? followLeadership({
        leadership,
        sessions,
        registry,
        log,
        // What the previous leader left half done (runs, promised switches back on), found and reported,
        // never replayed: awaited before this service polls a unit or accepts a change. Work it could
        // not look at stays in the store for the next takeover.
        takeOverFrom: () =>
          recoverInterrupted(ctx, { self: leadership.self }, options.notify ?? (() => undefined)).then(
            () => undefined,
            (error: unknown) => log('could not look for work the previous leader left unfinished', error),
          ),
      })
    : null;
  const followExternal = followExternalChange(sessions, log);
  // Old entries leave the store by age; a short-lived Core (a CLI command) leaves that to the long-running one.
  const retention =
    options.records && !options.lazySessions
      ? startRetention({
          records: options.records.activity.records,
          clock,
          log,
          days: () => settings.get().activityRetentionDays,
        })
      : null;
  // Changes the CLI, the web shell or a second app make to the shared file reach this one as events.
  const stopFollowing = [registry.follow(), settings.follow()];
  const discovery = new DiscoveryService({
    ...options.discovery,
    onProgress: (progress) => events.emit('discovery/progress', progress),
    savedControllers: () => registry.list(),
  });
  const reservations = createReservations({
    store: options.store,
    book: options.records?.reservations ?? null,
    clock,
    log,
    events,
    registry,
    sessions,
    activity,
  });
  const ctx: CoreContext = {
    info: {
      name: 'Plugboard',
      version: options.version,
      shell: options.shell,
      platform: process.platform,
      secrets: keepingOf(secrets),
      ...(secrets.why ? { keychainWhy: secrets.why } : {}),
    },
    clock,
    log,
    events,
    registry,
    settings,
    activity,
    sessions,
    discovery,
    demos,
    requestTimeoutMs: options.requestTimeoutMs,
    started: Promise.resolve(),
    reservations: reservations.reservations,
    accounts: options.records
      ? new Accounts({
          store: options.records.store,
          clock,
          record: (event) => recordSignIn(activity, event),
        })
      : null,
    operations: new Operations(clock, log),
    promises: options.records?.promises ?? NO_PROMISES,
    sequences: new Sequences({
      clock,
      log,
      events,
      sessions,
      registry,
      dataDir: options.dataDir ?? null,
      runs: options.records?.sequenceRuns ?? null,
      started: () => ctx.started,
    }),
    secrets,
    sessionSecrets,
  };
  // Meters outside their limits: judged from the pushed states, pushed as `meters/breaches`.
  startLimitWatch(ctx);
  // The fleet inventory, outlet names and script attribution in the activity log.
  const fleet = startFleet(ctx, options.dataDir ?? null);
  /** `actor` is all a handler records; `caller` (with its role and scope) only tells who it is. */
  const handlersFor = (actor: Actor, caller: Caller): Handlers => ({
    ...appHandlers(ctx, caller),
    ...controllerHandlers(ctx, actor),
    ...demoHandlers(ctx, actor),
    ...outletHandlers(ctx, actor),
    ...scriptHandlers(ctx, actor),
    ...userHandlers(ctx, actor),
    ...autopingHandlers(ctx, actor),
    ...systemHandlers(ctx, actor),
    ...meterHandlers(ctx),
    ...groupHandlers(ctx, actor),
    ...sequenceHandlers(ctx, actor),
    ...activityHandlers(ctx),
    ...settingsHandlers(ctx),
    ...discoveryHandlers(ctx),
    ...reservationHandlers(ctx, actor),
    ...accountHandlers(ctx, actor),
    ...fleetHandlers(ctx, fleet),
    ...labHandlers(),
  });
  const units = unitMessages(ctx);
  const user = options.user ?? osUserName();
  const facts = permissionFacts(ctx);
  // Calls the role or scope refused, in the log as attempts: counted, and bounded per client.
  const refused = new RefusalBudget({ activity, clock });
  const byCaller = new Map<string, Handlers>();
  const handlersAs = (caller: Caller | ActivityDoor): Handlers => {
    const resolved: Caller = typeof caller === 'string' ? { door: caller, who: user, role: 'admin' } : caller;
    // The scope is part of whom the handlers act for: an account given another scope gets new ones.
    const key = [
      resolved.door,
      resolved.who,
      resolved.role,
      resolved.credential ?? '',
      JSON.stringify(resolved.scope ?? null),
    ].join('\u0000');
    let handlers = byCaller.get(key);
    if (!handlers) {
      const frozen: Caller = Object.freeze({ ...resolved });
      // The handlers record only who and through which door: the role stays with the check.
      // Answered once what the call recorded is kept (activity-answers.ts), whatever the door.
      handlers = answeringWhenKept(
        permittedHandlers(
          handlersFor(Object.freeze({ door: frozen.door, who: frozen.who }), frozen),
          frozen,
          facts,
          leadership ? () => leadership.assertMayWrite() : undefined,
          (entry) => refused.refused(entry),
        ),
        activity,
        log,
      );
      byCaller.set(key, handlers);
    }
    return handlers;
  };

  let disposed = false;
  const notify = options.notify ?? (() => undefined);
  // What a killed Plugboard of this machine left; a short-lived Core (a CLI command) leaves it to the app,
  // and a service under a leadership looks when it begins to lead (takeOverFrom above).
  const recovered =
    sessions.lazy || leadership
      ? Promise.resolve()
      : recoverInterrupted(ctx, null, notify).then(
          () => undefined,
          (error: unknown) => log('could not look for work a stopped Plugboard left unfinished', error),
        );
  const started = (async () => {
    // A standby starts no session: they start when it begins to lead (leadership-wiring.ts).
    if (sessions.lazy || sessions.standing) return;
    for (const summary of registry.list()) if (!summary.demo) await sessions.start(summary);
  })().catch((error: unknown) => log('could not start polling the saved controllers', error));
  ctx.started = started;
  // Demo controllers live only as long as the run that started them (dropped after polling started:
  // the keychain may be slow to answer).
  const ready = started.then(async () => {
    await recovered;
    if (sessions.lazy) return;
    for (const stale of registry.list().filter((c) => c.demo && !demos.has(c.id))) {
      if (disposed) return;
      await registry
        .remove(stale.id)
        .catch((error: unknown) => log(`could not drop demo controller ${stale.name}`, error));
    }
    // Keychain entries a change that never finished left behind (a process died half-way).
    await registry.sweepSecrets().catch((error: unknown) => log('could not sweep the keychain', error));
  });

  const core: Core = {
    handlers: handlersAs('window'),
    handlersAs,
    accounts: ctx.accounts,
    subscribe: (sink) => events.subscribe(sink),
    setVisible(next) {
      if (next === visible) return;
      visible = next;
      sessions.replanAll();
      if (visible) sessions.pokeAll();
    },
    requestConfirmation: (request) => events.emit('ui/confirm', request),
    ready,
    hurry: () => ctx.operations.hurry(),
    recoverInterrupted: (takingOver) => recoverInterrupted(ctx, takingOver, notify),
    unitSaid: (controllerId, message) => {
      if (!disposed) units.said(controllerId, message);
    },
    unitSetSeen: (controllerId, topic) => {
      if (!disposed) units.setSeen(controllerId, topic);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      for (const stop of stopFollowing) stop();
      unfollowLeadership?.();
      // A sequence ends after its current step's request, recorded as stopped (sequences/sequences.ts).
      await ctx.sequences.stopAll();
      // A delayed cycle's outlet is switched back on before the sessions stop (bounded: operations.ts).
      await ctx.operations.finish();
      reservations.stop();
      await ready;
      await discovery.dispose();
      await sessions.dispose();
      const running = [...demos.values()];
      demos.clear();
      await Promise.all(running.map((demo) => demo.emulator.close().catch(() => undefined)));
      await activity.close();
      await retention?.stop();
      // After the last write to a unit, before the store closes: a planned stop hands over at once.
      await leadership?.release?.();
      // The runs' last writes (a stopped run's step) reach the store before it closes.
      await options.records?.sequenceRuns.settled();
      await options.records?.store.close();
      events.clear();
    },
  };
  return { core, registry };
}
