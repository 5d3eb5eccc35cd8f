import type { ControllerSummary } from '../../src-preload/model';
import { MemorySecretStore } from '../secrets';
import { recoverInterrupted } from './flows/interrupted';
import { assembleContext } from './flows/context-assembly';
import { osUserName, type Core, type CoreOptions, type EphemeralUnit } from './flows/core-interface';
import { handlerSets } from './handlers/handler-sets';
import { MemoryStore } from './kernel/ports';
import type { ControllerRegistry } from './saved/registry';
import { unitMessages } from './flows/unit-messages';

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
export { osUserName, type Core, type CoreOptions, type EphemeralUnit } from './flows/core-interface';

export function createCore(options: CoreOptions): Core {
  return assembleCore(options).core;
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
  const leadership = options.leadership ?? null;
  let visible = options.visible ?? true;
  const { ctx, fleet, reservations, retention, stopFollowing, unfollowLeadership } = assembleContext(
    options,
    () => visible,
  );
  const { log, events, registry, sessions, activity, discovery, demos } = ctx;
  const units = unitMessages(ctx);
  const handlersAs = handlerSets(ctx, fleet, options.user ?? osUserName(), leadership);

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
      // The inventory's last known values reach inventory.json before the Core says it has ended.
      await fleet.inventory.saved();
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
