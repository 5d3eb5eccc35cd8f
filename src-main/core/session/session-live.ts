/**
 * What a session knows about its controller and pushes to the window: the live state, the last outlets
 * read (the baseline for outside changes), the pending changes, the meter history, the relay timing.
 * Applying a read settles pending changes, notes outside changes and feeds the meter history.
 */
import type { ControllerState, ControllerSummary, Identity, RelayTiming } from '../../../src-preload/model';
import type { ControllerDescription, MeterReading, Outlet } from '../../dli/types';
import { outletLabel } from '../../../src-preload/words';
import { MeterSeries } from '../meters/meter-history';
import { carryHistory } from '../meters/meter-ids';
import { outsideChanges } from './outside-changes';
import { observedEntry } from './session-outlets';
import { PendingChanges } from './session-pending';
import type { SessionOptions } from './session-ports';
import { initialState, outletStates } from './session-state';
import { StatePublisher } from './state-publisher';

export type LiveFacts = Omit<ControllerState, 'outlets'>;
export type { RelayTiming };

export class SessionLive {
  readonly history: MeterSeries;
  /** Meter ids that changed while this session ran (old → new), as the history followed them. */
  readonly meterMoves = new Map<string, string>();
  readonly pending: PendingChanges;
  /** For countdowns and deadlines; read after each connect and after a change. Part of the state. */
  get relayTiming(): RelayTiming {
    return this.#live.relayTiming;
  }

  set relayTiming(timing: RelayTiming) {
    this.#live = { ...this.#live, relayTiming: timing };
  }
  /** The last outlets read, the baseline for spotting outside changes (null until the first poll). */
  #outlets: Outlet[] | null = null;
  #live: LiveFacts;
  readonly #publisher: StatePublisher;
  readonly #options: SessionOptions;
  readonly #summary: () => ControllerSummary;

  constructor(options: SessionOptions, summary: () => ControllerSummary) {
    this.#options = options;
    this.#summary = summary;
    this.history = options.history ?? new MeterSeries();
    this.pending = new PendingChanges({
      relayTiming: () => this.relayTiming,
      lastOutlets: () => this.#outlets,
      slackMs: options.timing.pendingSlackMs,
    });
    const { outlets: _none, ...rest } = initialState(options.summary.id);
    this.#live = rest;
    this.#publisher = new StatePublisher(
      () => this.#build(),
      (state) => options.hooks.publish(state),
      options.timing.heartbeatMs,
    );
  }

  /** The latest state (pushed or not). */
  get state(): ControllerState {
    return this.#publisher.current;
  }

  get facts(): Readonly<LiveFacts> {
    return this.#live;
  }

  get outlets(): readonly Outlet[] | null {
    return this.#outlets;
  }

  /** Change what is known; `publish` or `publishSoon` pushes it. */
  set(patch: Partial<Omit<LiveFacts, 'id'>>): void {
    this.#live = { ...this.#live, ...patch };
  }

  publish(): void {
    this.#publisher.now();
  }

  /** Push the state soon, after the request just started is on the wire. */
  publishSoon(): void {
    this.#publisher.soon();
  }

  /** Apply a change the controller accepted to the last known outlets (e.g. a rename), without polling. */
  patchOutlet(number: number, patch: Partial<Outlet>): void {
    this.#outlets = this.#outlets?.map((o) => (o.number === number ? { ...o, ...patch } : o)) ?? null;
    this.#publisher.now();
  }

  /** After a reboot the outlets read next are no outside change (the reboot reverted transient states). */
  forgetOutlets(): void {
    this.#outlets = null;
  }

  /** A description, or its live part alone (identity still the previous one, null on a first connect). */
  applyDescription(
    description: Omit<ControllerDescription, 'identity'> & { identity: Identity | null },
  ): void {
    const now = this.#options.clock.now();
    const { identity, capabilities } = description;
    this.#live = {
      ...this.#live,
      status: 'online',
      problem: null,
      nextAttemptAt: null,
      identity,
      capabilities,
      lastUpdate: now,
      ...(capabilities.isAdmin ? {} : { scripts: null, users: null, sshEnabled: null }),
    };
    this.applyOutlets(description.outlets, now);
    this.applyMeters(description.meters);
  }

  applyMeters(meters: MeterReading[] | null): void {
    this.#live = { ...this.#live, meters };
    if (meters) {
      for (const [from, to] of carryHistory(this.history, meters)) this.meterMoves.set(from, to);
      this.history.add(this.#options.clock.now(), meters);
      this.#options.hooks.metersRead({ ...this.#publisher.current, ...this.#live });
    }
  }

  /** New outlets from a poll that started at `startedAt`: settle pending changes, note outside ones. */
  applyOutlets(outlets: Outlet[], startedAt: number): void {
    const summary = this.#summary();
    const { hooks } = this.#options;
    const skip = new Set(this.pending.byOutlet.keys());
    const now = this.#options.clock.now();
    for (const entry of this.pending.settle(outlets, startedAt, now, summary)) hooks.record(entry);
    const before = this.#outlets;
    this.#outlets = outlets;
    const capabilities = this.#live.capabilities;
    if (capabilities && outlets.length > 0 && capabilities.outletCount !== outlets.length) {
      this.#live = { ...this.#live, capabilities: { ...capabilities, outletCount: outlets.length } };
    }
    if (!before) return;
    for (const change of outsideChanges(before, outlets, skip)) {
      hooks.record(observedEntry(summary, change));
      const label = outletLabel(change.outlet, outlets.find((o) => o.number === change.outlet)?.name);
      hooks.observed(summary, change, label);
    }
  }

  /** Drop pending changes past their deadline (even when polls fail) and record them as failed. */
  expirePending(): void {
    const online = this.#live.status === 'online';
    const now = this.#options.clock.now();
    const failures = this.pending.expire(now, online, this.#summary());
    for (const entry of failures) this.#options.hooks.record(entry);
    if (failures.length) this.#publisher.now();
  }

  #build(): ControllerState {
    const live = this.#live;
    const capabilities = live.capabilities;
    return {
      ...live,
      outlets: outletStates(
        this.#outlets ?? [],
        capabilities?.outletAccess ?? null,
        capabilities?.isAdmin ?? false,
        this.pending.byOutlet,
      ),
    };
  }
}
