import type { Accounts } from '../accounts/accounts';
import type { AppInfo } from '../../../src-preload/model';
import type { DiscoveryService } from '../../discovery/discovery-service';
import type { ActivityLog } from '../activity/activity-log';
import type { SecretStore } from '../../secrets';
import type { SessionSecrets } from '../saved/credentials-session';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../../shared/logging';
import type { EventHub } from '../kernel/event-hub';
import type { RunningDemo } from './demo';
import type { Operations } from '../actions/operations';
import type { PromiseKeeper } from '../actions/promised-switches';
import type { ControllerRegistry } from '../saved/registry';
import type { Reservations } from '../reservations/reservations';
import type { ControllerSession } from '../session/session';
import type { SessionManager } from '../session/sessions';
import type { SettingsStore } from '../saved/settings';
import type { Sequences } from '../sequences/sequences';

/**
 * Everything the Core's flows and handlers share: one object, built once in createCore. It names a part
 * of nearly every room, the demo controllers of this one included, so it lives in the lowest room that
 * may see them all; a room below takes only the part it reads, as an interface of its own that this
 * object satisfies (the fleet, the limit watch, a group run).
 */
export interface CoreContext {
  info: AppInfo;
  clock: Clock;
  log: Logger;
  events: EventHub;
  registry: ControllerRegistry;
  settings: SettingsStore;
  activity: ActivityLog;
  sessions: SessionManager;
  discovery: DiscoveryService;
  /** Running demo controllers by controller id (their emulators and in-memory passwords). */
  demos: Map<string, RunningDemo>;
  /** Resolves once every saved controller has its session (calls for a controller wait for it). */
  started: Promise<void>;
  /** Per-request limit for verifying a controller, ms. */
  requestTimeoutMs: number | undefined;
  /** Reservations: `assertMayAct` is the check every switching path calls before queueing. */
  reservations: Reservations;
  /** The people who sign in to this lab service (null: a Core without a lab store keeps none). */
  accounts: Accounts | null;
  /** Work a stop must finish first: a delayed cycle's switch back on (operations.ts). */
  operations: Operations;
  /** A delayed cycle's promise to switch its outlet back on, kept in the lab store while it stands. */
  promises: PromiseKeeper;
  /** Sequence runs: groups switched step by step. */
  sequences: Sequences;
  /** Where secrets are kept (keychain or memory) and the ones kept for this run only. */
  secrets: SecretStore;
  sessionSecrets: SessionSecrets;
}

/** The session of a saved controller, once the saved controllers have started (lazy: started now). */
export async function startedSession(ctx: CoreContext, id: string): Promise<ControllerSession> {
  await ctx.started;
  return ctx.sessions.open(id);
}
