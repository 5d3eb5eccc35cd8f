/*
 * The Core's rooms built and wired to one another, in the order they need each other: the saved records,
 * the settings, the activity log, the sessions, the leadership they follow, the reservations, then the
 * context every flow and handler shares, with the limit watch and the fleet started on it. createCore
 * (index.ts) puts the handlers and the Core's own life (start, stop) on top.
 */
import { join } from 'node:path';
import { DiscoveryService } from '../../discovery/discovery-service';
import { keepingOf, MemorySecretStore } from '../../secrets';
import { consoleLogger } from '../../shared/logging';
import { ActivityLog } from '../activity/activity-log';
import { ACTIVITY_FILE } from '../activity/activity-import';
import { startRetention, type Retention } from '../activity/activity-retention';
import { Accounts } from '../accounts/accounts';
import { Operations } from '../actions/operations';
import { NO_PROMISES } from '../actions/promised-switches';
import { startFleet, type Fleet } from '../fleet/fleet-wiring';
import { systemClock } from '../kernel/clock';
import { EventHub } from '../kernel/event-hub';
import { meterLimitCarrier } from '../meters/meter-ids';
import { startLimitWatch } from '../meters/meter-limits-wiring';
import { createReservations } from '../reservations/reservations-wiring';
import { SessionSecrets } from '../saved/credentials-session';
import { ControllerRegistry } from '../saved/registry';
import { SettingsStore } from '../saved/settings';
import { Sequences } from '../sequences/sequences';
import { NotificationDecider } from '../session/notifications';
import { DEFAULT_TIMING, type PollTiming } from '../session/poll-policy';
import { followExternalChange } from '../session/registry-follow';
import { SessionManager } from '../session/sessions';
import type { CoreContext } from './core-context';
import type { CoreOptions } from './core-interface';
import { recoverInterrupted } from './interrupted';
import { followLeadership } from './leadership-wiring';
import { recordSignIn } from './sign-in-log';

/** The context, and what the Core stops when it is disposed. */
export interface AssembledContext {
  ctx: CoreContext;
  fleet: Fleet;
  reservations: ReturnType<typeof createReservations>;
  retention: Retention | null;
  /** Stop following the shared file's changes (the registry's, the settings'). */
  stopFollowing: (() => void)[];
  unfollowLeadership: (() => void) | null;
}

/** Build the rooms for `options`; `visible` says whether anyone is looking (the sessions poll less when not). */
export function assembleContext(options: CoreOptions, visible: () => boolean): AssembledContext {
  const log = options.log ?? consoleLogger();
  const clock = options.clock ?? systemClock;
  const leadership = options.leadership ?? null;
  const timing: PollTiming = { ...DEFAULT_TIMING, ...options.timing };
  const events = new EventHub(log);
  const secrets = options.secrets ?? new MemorySecretStore();
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
    visible,
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
  return { ctx, fleet, reservations, retention, stopFollowing, unfollowLeadership };
}
