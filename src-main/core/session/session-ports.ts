import type { Actor, ControllerState, ControllerSummary, Settings } from '../../../src-preload/model';
import type { NewActivity } from '../activity/activity-log';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../../shared/logging';
import type { MeterSeries } from '../meters/meter-history';
import type { ObservedChange } from './outside-changes';
import type { PollTiming } from './poll-policy';

/** What the Core does with what a session learns. */
export interface SessionHooks {
  /** The state changed (or its heartbeat is due): push `state/changed`. */
  publish(state: ControllerState): void;
  record(entry: NewActivity): void;
  /** After every poll, good or bad; `failures` counts failed polls in a row. */
  polled(state: ControllerState, failures: number): void;
  metersRead(state: ControllerState): void;
  /** An outlet changed outside Plugboard (already recorded in the activity log). */
  observed(summary: ControllerSummary, change: ObservedChange, label: string): void;
  /** Throws RESERVED unless `actor` may switch these outlets ('all': every outlet) — before any request goes. */
  mayAct?(controllerId: string, actor: Actor, outlets: 'all' | readonly number[]): void;
}

/** What a session is given by the Core. */
export interface SessionOptions {
  summary: ControllerSummary;
  clock: Clock;
  timing: PollTiming;
  log: Logger;
  settings(): Settings;
  visible(): boolean;
  secret(summary: ControllerSummary): Promise<string | null>;
  hooks: SessionHooks;
  /** Per-request limit of the client, ms (default the client's 10 s). */
  requestTimeoutMs?: number;
  /** The fence before every request that changes the unit (a service that may lose the lead). */
  beforeWrite?: () => void;
  /**
   * The meter history so far, when this session takes over from another one for the same controller
   * (a reconnect: new password, trusted certificate): the charts go on instead of starting again.
   */
  history?: MeterSeries;
  /** The topic root the unit was heard publishing under by the session this one replaces (MQTT). */
  heard?: string | null;
}
