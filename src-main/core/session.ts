/**
 * One saved controller while Plugboard runs: its client (one per controller, so the digest nonce is
 * reused), its live state, its poller, the changes it is waiting to see confirmed, its meter history.
 * Outlet and admin actions live in session-actions.ts and reach in through `SessionPort`.
 */
import type { ControllerState, ControllerSummary, Settings } from '../../src-preload/model';
import { DliClient } from '../dli/client';
import { PlugboardError, isPlugboardError } from '../dli/errors';
import type { Capabilities, ControllerDescription, Identity, MeterReading, Outlet } from '../dli/types';
import type { NewActivity } from './activity-log';
import type { Clock } from './clock';
import type { Logger } from './dispatch';
import { MeterSeries } from './meter-history';
import { outsideChanges, type ObservedChange } from './outside-changes';
import { resolvePending, type PendingOutlet } from './pending';
import { nextPollDelay, pollPlan, type PollPhase, type PollTiming } from './poll-policy';
import { Poller } from './poller';
import { sameJson } from './same-json';
import { credentialsFor, initialState, outletLabel, outletStates, statusForError } from './session-state';

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
}

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
}

interface Reboot {
  since: number;
  sawDown: boolean;
  challenges: number;
}

type SlowPart = 'scripts' | 'users' | 'ssh';
const SLOW_PARTS: readonly SlowPart[] = ['scripts', 'users', 'ssh'];
const IGNORE_LAST_UPDATE: ReadonlySet<string> = new Set(['lastUpdate']);
const QUIET_REBOOT_MS = 60_000;

export class ControllerSession {
  summary: ControllerSummary;
  readonly history = new MeterSeries();
  readonly options: SessionOptions;
  readonly poller: Poller;
  readonly #abort = new AbortController();
  #client: DliClient | null = null;
  #clientPromise: Promise<DliClient> | null = null;
  #phase: PollPhase = 'connect';
  #failures = 0;
  #reboot: Reboot | null = null;
  #lastSlowRead: number | null = null;
  /** The last outlets read, the baseline for spotting outside changes (null until the first poll). */
  #outlets: Outlet[] | null = null;
  #relayTiming: { cycleDelay: number | null; sequenceDelay: number | null } = {
    cycleDelay: null,
    sequenceDelay: null,
  };
  readonly pending = new Map<number, PendingOutlet>();
  #live: Omit<ControllerState, 'outlets'>;
  #current: ControllerState;
  #emitted: ControllerState | null = null;
  #publishQueued = false;

  constructor(options: SessionOptions) {
    this.options = options;
    this.summary = options.summary;
    const { outlets: _none, ...rest } = initialState(options.summary.id);
    this.#live = rest;
    this.#current = initialState(options.summary.id);
    this.poller = new Poller(
      options.clock,
      () => this.#tick(),
      () => this.#nextDelay(),
      (error) => options.log(`polling ${this.summary.name} failed unexpectedly`, error),
    );
  }

  get state(): ControllerState {
    return this.#current;
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
    this.#publish();
    if (description) this.options.hooks.polled(this.#current, 0);
    this.poller.start(description ? this.options.settings().pollIntervalMs : 0);
    if (description) void this.#afterConnect(description).catch(() => undefined);
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
      const client = new DliClient({
        url: this.summary.url,
        credentials: credentialsFor(this.summary, secret),
        name: this.summary.name,
        fingerprint: this.summary.fingerprint,
        // Known from an earlier connect: gated calls then need no extra read.
        ...(this.#live.identity?.firmware ? { firmware: this.#live.identity.firmware } : {}),
        ...(this.options.requestTimeoutMs ? { timeoutMs: this.options.requestTimeoutMs } : {}),
      });
      this.#client = client;
      return client;
    })().catch((error: unknown) => {
      this.#clientPromise = null;
      throw error;
    });
    return this.#clientPromise;
  }

  /** Poll now (a paused controller tries again); resolves when that poll is over. */
  refresh(): Promise<void> {
    if (this.#phase === 'paused') this.#phase = 'connect';
    return this.poller.pollNow();
  }

  /** The interval, visibility or a threshold changed: re-plan, and catch up on what became due. */
  replan(): void {
    this.poller.replan();
  }

  /** Push the state soon, after the request just started is on the wire. */
  publishSoon(): void {
    if (this.#publishQueued) return;
    this.#publishQueued = true;
    setImmediate(() => {
      this.#publishQueued = false;
      this.#publish();
    });
  }

  /** Rebuild the state and push it if it changed. */
  publishNow(): void {
    this.#publish();
  }

  /** Apply a change the controller accepted to the last known outlets (e.g. a rename), without polling. */
  patchOutlet(number: number, patch: Partial<Outlet>): void {
    this.#outlets = this.#outlets?.map((o) => (o.number === number ? { ...o, ...patch } : o)) ?? null;
    this.#publish();
  }

  patchLive(patch: Partial<Omit<ControllerState, 'outlets' | 'id'>>): void {
    this.#live = { ...this.#live, ...patch };
    this.#publish();
  }

  /** The controller accepted a reboot: show it rebooting and probe until it answers again. */
  markRebooting(since: number, client: DliClient): void {
    this.#reboot = { since, sawDown: false, challenges: client.stats.challenges };
    this.#phase = 'rebooting';
    this.#failures = 0;
    this.pending.clear();
    this.#live = { ...this.#live, status: 'rebooting', problem: null, rebootingSince: since };
    this.#publish();
    this.poller.poke(this.options.timing.rebootFirstMs);
  }

  /** Re-read scripts and threads, users and SSH (administrators), or some of them; FORBIDDEN empties them. */
  async readSlow(parts: readonly SlowPart[] = SLOW_PARTS): Promise<void> {
    const client = await this.client();
    const options = { signal: this.signal, priority: 'background' as const };
    const forbiddenIsNull = <T>(read: Promise<T>): Promise<T | null> =>
      read.catch((error: unknown) => {
        if (isPlugboardError(error) && error.code === 'FORBIDDEN') return null;
        throw error;
      });
    const patch: Partial<Pick<ControllerState, 'scripts' | 'users' | 'sshEnabled'>> = {};
    if (parts.includes('scripts')) patch.scripts = await forbiddenIsNull(client.scripts.list(options));
    if (parts.includes('users')) patch.users = await forbiddenIsNull(client.users.list(options));
    if (parts.includes('ssh')) patch.sshEnabled = await forbiddenIsNull(client.system.ssh(options));
    if (parts.length === SLOW_PARTS.length) this.#lastSlowRead = this.options.clock.now();
    this.#live = { ...this.#live, ...patch };
    this.#publish();
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
    try {
      if (this.#phase === 'rebooting') await this.#probeReboot();
      else if (this.#phase === 'connect') await this.#connect();
      else await this.#poll(startedAt);
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      this.#failed(isPlugboardError(error) ? error : new PlugboardError('INTERNAL', String(error)));
    }
    if (this.#abort.signal.aborted) return;
    this.#expirePending();
    this.options.hooks.polled(this.#current, this.#failures);
  }

  /** Read everything about the controller; `connected` runs as soon as it shows online. */
  async #connect(connected?: () => void): Promise<void> {
    const client = await this.client();
    const description = await client.describe({ signal: this.signal, priority: 'background' });
    this.#applyDescription(description);
    this.#phase = 'steady';
    this.#failures = 0;
    this.#publish();
    connected?.();
    this.options.hooks.polled(this.#current, 0);
    await this.#afterConnect(description);
  }

  /** The relay timing (for countdowns and deadlines) and, for administrators, scripts, users and SSH. */
  async #afterConnect(description: ControllerDescription): Promise<void> {
    const client = await this.client();
    this.#relayTiming = await client.system
      .relayTiming({ signal: this.signal, priority: 'background' })
      .catch(() => this.#relayTiming);
    if (description.capabilities.isAdmin && this.options.visible())
      await this.readSlow().catch(() => undefined);
  }

  async #poll(startedAt: number): Promise<void> {
    const client = await this.client();
    const capabilities = this.#live.capabilities;
    const now = this.options.clock.now();
    const plan = pollPlan(
      {
        hasMeters: capabilities?.meters ?? false,
        isAdmin: capabilities?.isAdmin ?? false,
        visible: this.options.visible(),
        watchedMeters: this.#watchedMeters(),
        confirming: this.pending.size > 0,
        lastSlowRead: this.#lastSlowRead,
        now,
      },
      this.options.timing,
    );
    const read = await client.refresh({ meters: plan.meters, signal: this.signal, priority: 'background' });
    this.#failures = 0;
    this.#applyOutlets(read.outlets, startedAt);
    this.#live = { ...this.#live, status: 'online', problem: null, lastUpdate: this.options.clock.now() };
    if (plan.meters) this.#applyMeters(read.meters);
    this.#publish();
    if (plan.slow) await this.readSlow().catch(() => undefined);
  }

  async #probeReboot(): Promise<void> {
    const reboot = this.#reboot!;
    const client = await this.client();
    const now = this.options.clock.now();
    try {
      await client.outlets.list({ signal: this.signal, priority: 'background', timeoutMs: 5000 });
    } catch (error) {
      reboot.sawDown = true;
      this.#failures++;
      if (now - reboot.since < this.options.timing.rebootGiveUpMs) return;
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
    // Back: after it was seen down, or it forgot our login nonce (it restarted), or it never went away.
    const restarted = reboot.sawDown || client.stats.challenges > reboot.challenges;
    if (!restarted && now - reboot.since < QUIET_REBOOT_MS) {
      this.#failures++;
      return;
    }
    this.#reboot = null;
    this.#outlets = null;
    this.#live = { ...this.#live, rebootingSince: null };
    await this.#connect(() =>
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
    this.#publish();
  }

  #applyDescription(description: ControllerDescription): void {
    const now = this.options.clock.now();
    const identity: Identity = description.identity;
    const capabilities: Capabilities = description.capabilities;
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
      this.history.add(this.options.clock.now(), meters);
      this.options.hooks.metersRead({ ...this.#current, ...this.#live });
    }
  }

  /** New outlets from a poll that started at `startedAt`: settle pending changes, note outside ones. */
  #applyOutlets(outlets: Outlet[], startedAt: number): void {
    const now = this.options.clock.now();
    const skip = new Set(this.pending.keys());
    for (const outlet of outlets) {
      const waiting = this.pending.get(outlet.number);
      if (!waiting) continue;
      const resolution = resolvePending(waiting, outlet, startedAt, now);
      if (resolution.kind === 'waiting') {
        if (resolution.sawOff) waiting.sawOff = true;
      } else {
        this.pending.delete(outlet.number);
        if (resolution.kind === 'failed')
          this.#recordUnconfirmed(outlet.number, outlet.name, waiting, resolution.reason);
      }
    }
    const before = this.#outlets;
    this.#outlets = outlets;
    if (
      this.#live.capabilities &&
      this.#live.capabilities.outletCount !== outlets.length &&
      outlets.length > 0
    ) {
      const capabilities = this.#live.capabilities;
      this.#live = { ...this.#live, capabilities: { ...capabilities, outletCount: outlets.length } };
    }
    if (!before) return;
    for (const change of outsideChanges(before, outlets, skip)) {
      const label = outletLabel(change.outlet, outlets.find((o) => o.number === change.outlet)?.name);
      this.options.hooks.record({
        controllerId: this.summary.id,
        controllerName: this.summary.name,
        outlet: change.outlet,
        action: change.action,
        source: 'outside',
        result: 'observed',
        error: null,
      });
      this.options.hooks.observed(this.summary, change, label);
    }
  }

  /** Pending changes past their deadline fail even when polls fail (the controller may be gone). */
  #expirePending(): void {
    const now = this.options.clock.now();
    let changed = false;
    for (const [number, waiting] of this.pending) {
      if (now <= waiting.deadline) continue;
      this.pending.delete(number);
      changed = true;
      const name = this.#outlets?.find((o) => o.number === number)?.name;
      const reason =
        this.#live.status === 'online'
          ? `it did not reach the state asked for within ${Math.round((now - waiting.since) / 1000)} s`
          : `${this.summary.name} stopped answering before it could be confirmed`;
      this.#recordUnconfirmed(number, name, waiting, reason);
    }
    if (changed) this.#publish();
  }

  #recordUnconfirmed(number: number, name: string | undefined, waiting: PendingOutlet, reason: string): void {
    const label = outletLabel(number, name);
    this.options.hooks.record({
      controllerId: this.summary.id,
      controllerName: this.summary.name,
      outlet: number,
      action: `${waiting.action} (not confirmed)`,
      source: waiting.source,
      result: 'error',
      error: {
        code: 'TIMEOUT',
        message: `${label.charAt(0).toUpperCase()}${label.slice(1)} on ${this.summary.name} was not confirmed: ${reason}. Check the outlet on the controller.`,
      },
    });
  }

  #watchedMeters(): boolean {
    const settings = this.options.settings();
    return (
      settings.notifications.meterThresholds &&
      settings.meterThresholds.some((threshold) => threshold.controllerId === this.summary.id)
    );
  }

  #publish(): void {
    const live = this.#live;
    const capabilities = live.capabilities;
    const next: ControllerState = {
      ...live,
      outlets: outletStates(
        this.#outlets ?? [],
        capabilities?.outletAccess ?? null,
        capabilities?.isAdmin ?? false,
        this.pending,
      ),
    };
    this.#current = next;
    const previous = this.#emitted;
    if (previous && sameJson(previous, next, IGNORE_LAST_UPDATE)) {
      const heartbeatDue =
        next.lastUpdate !== null &&
        (previous.lastUpdate ?? 0) + this.options.timing.heartbeatMs <= next.lastUpdate;
      if (!heartbeatDue) return;
    }
    this.#emitted = next;
    this.options.hooks.publish(next);
  }
}
