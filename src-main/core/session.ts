/**
 * One saved controller while Plugboard runs: its client (one per controller, so the digest nonce is
 * reused), its live state, its poller, the changes it is waiting to see confirmed, its meter history.
 * Outlet and admin actions (outlet-actions.ts, admin-actions.ts) use its public members.
 */
import type { ControllerState, ControllerSummary, Identity } from '../../src-preload/model';
import type { DliClient } from '../dli/client';
import { PlugboardError, internalError, isPlugboardError } from '../shared/errors';
import type { ControllerDescription, MeterReading, Outlet } from '../dli/types';
import { outletLabel } from '../../src-preload/words';
import { MeterSeries } from './meter-history';
import { carryHistory } from './meter-ids';
import { outsideChanges } from './outside-changes';
import type { PendingOutlet } from './pending';
import { nextPollDelay, pollPlan, watchesMeters, type PollPhase } from './poll-policy';
import { Poller } from './poller';
import { RebootWatch } from './reboot-watch';
import { expirePending, observedEntry, settlePending } from './session-outlets';
import type { SessionOptions } from './session-ports';
import { initialState, newClient, outletStates, statusForError } from './session-state';
import { SLOW_PARTS, readSlowParts, type SlowPart } from './slow-reads';
import { StatePublisher } from './state-publisher';

export type { SessionHooks, SessionOptions } from './session-ports';

export class ControllerSession {
  summary: ControllerSummary;
  readonly history = new MeterSeries();
  /** Meter ids that changed while this session ran (old → new), as the history followed them. */
  readonly meterMoves = new Map<string, string>();
  readonly options: SessionOptions;
  readonly poller: Poller;
  readonly #abort = new AbortController();
  #client: DliClient | null = null;
  #clientPromise: Promise<DliClient> | null = null;
  #phase: PollPhase = 'connect';
  /**
   * Counts phase changes that make a running poll's answer stale (a reboot starts): a poll that began
   * in an earlier epoch discards what it read, so it cannot show a rebooting controller as online.
   */
  #epoch = 0;
  #failures = 0;
  #reboot: RebootWatch | null = null;
  #lastSlowRead: number | null = null;
  /** The next poll is a refresh someone asked for. */
  #refreshAsked = false;
  /** The last outlets read, the baseline for spotting outside changes (null until the first poll). */
  #outlets: Outlet[] | null = null;
  #relayTiming: { cycleDelay: number | null; sequenceDelay: number | null } = {
    cycleDelay: null,
    sequenceDelay: null,
  };
  readonly pending = new Map<number, PendingOutlet>();
  #live: Omit<ControllerState, 'outlets'>;
  readonly #publisher: StatePublisher;

  constructor(options: SessionOptions) {
    this.options = options;
    this.summary = options.summary;
    const { outlets: _none, ...rest } = initialState(options.summary.id);
    this.#live = rest;
    this.#publisher = new StatePublisher(
      () => this.#build(),
      (state) => options.hooks.publish(state),
      options.timing.heartbeatMs,
    );
    this.poller = new Poller(
      options.clock,
      () => this.#tick(),
      () => this.#nextDelay(),
      (error) => options.log(`polling ${this.summary.name} failed unexpectedly`, error),
    );
  }

  get state(): ControllerState {
    return this.#publisher.current;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get lastOutlets(): readonly Outlet[] | null {
    return this.#outlets;
  }

  get relayTiming(): { cycleDelay: number | null; sequenceDelay: number | null } {
    return this.#relayTiming;
  }

  /** Start polling; with a description (just verified by "add controller") the first connect is skipped. */
  start(description?: ControllerDescription): void {
    if (description) {
      this.#applyDescription(description);
      this.#phase = 'steady';
    }
    this.#publisher.now();
    if (description) this.options.hooks.polled(this.#publisher.current, 0);
    this.poller.start(description ? this.options.settings().pollIntervalMs : 0);
    if (description) void this.#afterConnect(description).catch(this.loggedAs('read scripts, users and SSH'));
  }

  async stop(): Promise<void> {
    this.poller.stop();
    this.#abort.abort();
    this.pending.clear();
    const client = this.#client ?? (await this.#clientPromise?.catch(() => null)) ?? null;
    this.#client = null;
    await client?.close().catch(() => undefined);
  }

  /** The client, made on first use from the saved secret. */
  client(): Promise<DliClient> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#clientPromise ??= (async () => {
      const secret = await this.options.secret(this.summary);
      const firmware = this.#live.identity?.firmware;
      this.#client = newClient(this.summary, secret, firmware, this.options.requestTimeoutMs);
      return this.#client;
    })().catch((error: unknown) => {
      this.#clientPromise = null;
      throw error;
    });
    return this.#clientPromise;
  }

  /**
   * Poll now: one full refresh, the outlets and the meters (a paused controller tries to connect again).
   * Resolves when that poll is over. Scripts, users and SSH keep their own slower schedule.
   */
  refresh(): Promise<void> {
    if (this.#phase === 'paused') this.#phase = 'connect';
    this.#refreshAsked = true;
    return this.poller.pollNow();
  }

  /** The interval, visibility or a threshold changed: re-plan, and catch up on what became due. */
  replan(): void {
    this.poller.replan();
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

  patchLive(patch: Partial<Omit<ControllerState, 'outlets' | 'id'>>): void {
    this.#live = { ...this.#live, ...patch };
    this.#publisher.now();
  }

  /** The controller accepted a reboot: show it rebooting and probe until it answers again. */
  markRebooting(since: number, client: DliClient): void {
    this.#reboot = new RebootWatch(since, client.stats.challenges);
    this.#epoch++;
    this.#phase = 'rebooting';
    this.#failures = 0;
    this.pending.clear();
    this.#live = { ...this.#live, status: 'rebooting', problem: null, rebootingSince: since };
    this.#publisher.now();
    this.poller.poke(this.options.timing.rebootFirstMs);
  }

  /**
   * For a background read whose failure only waits for the next schedule: log it with its cause (not
   * when the session is stopping), and carry on.
   */
  loggedAs(what: string): (error: unknown) => void {
    return (error) => {
      if (!this.#abort.signal.aborted) this.options.log(`could not ${what} of ${this.summary.name}`, error);
    };
  }

  /** Re-read scripts and threads, users and SSH (administrators), or some of them; FORBIDDEN empties them. */
  async readSlow(parts: readonly SlowPart[] = SLOW_PARTS): Promise<void> {
    const patch = await readSlowParts(await this.client(), parts, this.signal, this.#live.scripts);
    if (parts.length === SLOW_PARTS.length) this.#lastSlowRead = this.options.clock.now();
    this.#live = { ...this.#live, ...patch };
    this.#publisher.now();
  }

  #nextDelay(): number | null {
    return nextPollDelay(
      {
        phase: this.#phase,
        failures: this.#failures,
        pending: this.pending.size > 0,
        intervalMs: this.options.settings().pollIntervalMs,
      },
      this.options.timing,
    );
  }

  async #tick(): Promise<void> {
    // Paused until the person acts (refresh, new password, certificate accepted).
    if (this.#phase === 'paused') return;
    const startedAt = this.options.clock.now();
    const epoch = this.#epoch;
    try {
      if (this.#phase === 'rebooting') await this.#probeReboot();
      else if (this.#phase === 'connect') await this.#connect(epoch);
      else await this.#poll(startedAt, epoch);
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      // A failure of a poll from before a reboot started says nothing about the reboot.
      if (epoch === this.#epoch)
        this.#failed(
          isPlugboardError(error)
            ? error
            : internalError(`poll ${this.summary.name}`, error, this.options.log),
        );
    }
    if (this.#abort.signal.aborted) return;
    this.#expirePending();
    this.options.hooks.polled(this.#publisher.current, this.#failures);
  }

  /**
   * Read everything about the controller; `connected` runs as soon as it shows online. The outlets,
   * meters and capabilities are published as soon as they are read, before the identity strings: the
   * person sees live outlets after four requests instead of ten.
   */
  async #connect(epoch: number, connected?: () => void): Promise<void> {
    const client = await this.client();
    const stale = (): boolean => epoch !== this.#epoch;
    const online = (): void => {
      this.#phase = 'steady';
      this.#failures = 0;
      this.#publisher.now();
    };
    const description = await client.describe({
      signal: this.signal,
      priority: 'background',
      onLive: (live) => {
        if (stale()) return;
        this.#applyDescription({ ...live, identity: this.#live.identity });
        online();
        connected?.();
        this.options.hooks.polled(this.#publisher.current, 0);
      },
    });
    if (stale()) return;
    this.#live = { ...this.#live, identity: description.identity };
    online();
    await this.#afterConnect(description);
  }

  /** The relay timing (for countdowns and deadlines) and, for administrators, scripts, users and SSH. */
  async #afterConnect(description: ControllerDescription): Promise<void> {
    const client = await this.client();
    this.#relayTiming = await client.system
      .relayTiming({ signal: this.signal, priority: 'background' })
      .catch((error: unknown) => {
        this.loggedAs('read the relay timing')(error);
        return this.#relayTiming;
      });
    if (description.capabilities.isAdmin && this.options.visible())
      await this.readSlow().catch(this.loggedAs('read scripts, users and SSH'));
  }

  async #poll(startedAt: number, epoch: number): Promise<void> {
    const client = await this.client();
    const capabilities = this.#live.capabilities;
    const now = this.options.clock.now();
    const asked = this.#refreshAsked;
    this.#refreshAsked = false;
    const plan = asked
      ? { meters: capabilities?.meters ?? false, slow: false, threads: false }
      : pollPlan(
          {
            hasMeters: capabilities?.meters ?? false,
            isAdmin: capabilities?.isAdmin ?? false,
            visible: this.options.visible(),
            watchedMeters: watchesMeters(this.options.settings(), this.summary.id),
            confirming: this.pending.size > 0,
            lastSlowRead: this.#lastSlowRead,
            threadsRunning: (this.#live.scripts?.threads.length ?? 0) > 0,
            now,
          },
          this.options.timing,
        );
    const read = await client.refresh({ meters: plan.meters, signal: this.signal, priority: 'background' });
    // Read before a reboot started: the controller may already be down.
    if (epoch !== this.#epoch) return;
    this.#failures = 0;
    this.#applyOutlets(read.outlets, startedAt);
    this.#live = { ...this.#live, status: 'online', problem: null, lastUpdate: this.options.clock.now() };
    if (plan.meters) this.#applyMeters(read.meters);
    this.#publisher.now();
    if (plan.slow) await this.readSlow().catch(this.loggedAs('read scripts, users and SSH'));
    else if (plan.threads) await this.readSlow(['threads']).catch(this.loggedAs('read the running scripts'));
  }

  async #probeReboot(): Promise<void> {
    const reboot = this.#reboot!;
    const client = await this.client();
    const now = this.options.clock.now();
    try {
      // The normal request budget: a slow unit (5 s for the outlets) must be able to answer a probe.
      await client.outlets.list({ signal: this.signal, priority: 'background' });
    } catch (error) {
      reboot.down();
      this.#failures++;
      if (!reboot.givenUp(now, this.options.timing.rebootGiveUpMs)) return;
      this.#reboot = null;
      this.#phase = 'connect';
      this.#live = { ...this.#live, rebootingSince: null };
      const seconds = Math.round(this.options.timing.rebootGiveUpMs / 1000);
      throw new PlugboardError(
        'UNREACHABLE',
        `${this.summary.name} did not come back within ${seconds} s of the reboot. Check its power and network.`,
        undefined,
        { cause: error },
      );
    }
    if (!reboot.back(now, client.stats.challenges)) {
      this.#failures++;
      return;
    }
    this.#reboot = null;
    // The reboot reverted transient states: that is not an outside change.
    this.#outlets = null;
    this.#live = { ...this.#live, rebootingSince: null };
    await this.#connect(this.#epoch, () =>
      this.options.hooks.record({
        controllerId: this.summary.id,
        controllerName: this.summary.name,
        outlet: null,
        action: 'back online after the reboot',
        source: 'system',
        result: 'ok',
        error: null,
      }),
    );
  }

  #failed(error: PlugboardError): void {
    if (error.code === 'CANCELLED') return;
    this.#failures++;
    const { status, pause } = statusForError(error);
    this.#phase = pause ? 'paused' : 'connect';
    this.#live = { ...this.#live, status, problem: error.toContractError() };
    this.#publisher.now();
  }

  /** A description, or its live part alone (identity still the previous one, null on a first connect). */
  #applyDescription(
    description: Omit<ControllerDescription, 'identity'> & { identity: Identity | null },
  ): void {
    const now = this.options.clock.now();
    const { identity, capabilities } = description;
    this.#live = {
      ...this.#live,
      status: 'online',
      problem: null,
      identity,
      capabilities,
      lastUpdate: now,
      ...(capabilities.isAdmin ? {} : { scripts: null, users: null, sshEnabled: null }),
    };
    this.#applyOutlets(description.outlets, now);
    this.#applyMeters(description.meters);
  }

  #applyMeters(meters: MeterReading[] | null): void {
    this.#live = { ...this.#live, meters };
    if (meters) {
      for (const [from, to] of carryHistory(this.history, meters)) this.meterMoves.set(from, to);
      this.history.add(this.options.clock.now(), meters);
      this.options.hooks.metersRead({ ...this.#publisher.current, ...this.#live });
    }
  }

  /** New outlets from a poll that started at `startedAt`: settle pending changes, note outside ones. */
  #applyOutlets(outlets: Outlet[], startedAt: number): void {
    const skip = new Set(this.pending.keys());
    const now = this.options.clock.now();
    for (const entry of settlePending(this.pending, outlets, startedAt, now, this.summary)) {
      this.options.hooks.record(entry);
    }
    const before = this.#outlets;
    this.#outlets = outlets;
    const capabilities = this.#live.capabilities;
    if (capabilities && outlets.length > 0 && capabilities.outletCount !== outlets.length) {
      this.#live = { ...this.#live, capabilities: { ...capabilities, outletCount: outlets.length } };
    }
    if (!before) return;
    for (const change of outsideChanges(before, outlets, skip)) {
      this.options.hooks.record(observedEntry(this.summary, change));
      const label = outletLabel(change.outlet, outlets.find((o) => o.number === change.outlet)?.name);
      this.options.hooks.observed(this.summary, change, label);
    }
  }

  #expirePending(): void {
    const online = this.#live.status === 'online';
    const now = this.options.clock.now();
    const failures = expirePending(this.pending, now, this.#outlets, online, this.summary);
    for (const entry of failures) this.options.hooks.record(entry);
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
        this.pending,
      ),
    };
  }
}
