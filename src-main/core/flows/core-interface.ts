/*
 * The Core as the doors see it: the options it is opened with, what it gives (the Core), and the unit a
 * one-off Core works on. createCore (index.ts) assembles it; index.ts re-exports these.
 */
import type { AppInfo, ConfirmRequest, EventSink, Handlers } from '../../../src-preload/contract';
import type { ActivityDoor, AuthKind, Caller } from '../../../src-preload/model';
import { userInfo } from 'node:os';
import type { DiscoveryTuning } from '../../discovery/discovery-service';
import type { SecretStore } from '../../secrets';
import type { Logger } from '../../shared/logging';
import type { Accounts } from '../accounts/accounts';
import type { Leadership } from '../database/leadership';
import type { Clock } from '../kernel/clock';
import type { KeyValueStore } from '../kernel/ports';
import type { Notice } from '../session/notifications';
import type { PollTiming } from '../session/poll-policy';
import type { Interrupted, TakingOver } from './interrupted';
import type { LabRecords } from './lab-records';
import type { UnitMessage } from './unit-messages';

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
