/**
 * When and how a session reads its controller: the poll phases (connect, steady, rebooting, paused),
 * the connect, the steady poll with its plan (meters, slow parts), the probes while it reboots, and
 * what a failed read means for the status. What is read goes to the session's live state (session-live.ts).
 */
import type { DliClient } from '../../dli/client';
import type { ControllerDescription } from '../../dli/types';
import { PlugboardError, internalError, isPlugboardError } from '../../shared/errors';
import { nextAttemptAt, nextPollDelay, type PollPhase } from './poll-policy';
import { SteadyReads, type PollingContext } from './steady-reads';

export type { PollingContext } from './steady-reads';
import { Poller } from './poller';
import { RebootWatch } from './reboot-watch';
import { SYSTEM_ACTOR } from '../activity/activity-log';
import { statusForError } from './session-state';
import { SLOW_PARTS, readSlowParts, type SlowPart } from './slow-reads';

export class SessionPolling {
  readonly #c: PollingContext;
  readonly #poller: Poller;
  #phase: PollPhase = 'connect';
  /**
   * Counts phase changes that make a running poll's answer stale (a reboot starts): a poll that began
   * in an earlier epoch discards what it read, so it cannot show a rebooting controller as online.
   */
  #epoch = 0;
  #failures = 0;
  #reboot: RebootWatch | null = null;
  #lastSlowRead: number | null = null;
  readonly #steady: SteadyReads;

  constructor(context: PollingContext) {
    this.#c = context;
    const { options } = context;
    this.#steady = new SteadyReads(
      context,
      (parts) => this.readSlow(parts),
      () => this.#lastSlowRead,
    );
    this.#poller = new Poller(
      options.clock,
      () => this.#tick(),
      () => this.#nextDelay(),
      (error) => options.log(`polling ${context.summary().name} failed unexpectedly`, error),
    );
  }

  /** Start polling; with a description (just verified by "add controller") the first connect is skipped. */
  start(description?: ControllerDescription): void {
    const { live, options } = this.#c;
    if (description) {
      live.applyDescription(description);
      this.#steady.listRead(options.clock.now());
      this.#phase = 'steady';
    }
    live.publish();
    if (description) options.hooks.polled(live.state, 0);
    this.#poller.start(description ? options.settings().pollIntervalMs : 0);
    if (description)
      void this.#afterConnect(description).catch(this.#c.loggedAs('read scripts, users and SSH'));
  }

  stop(): void {
    this.#poller.stop();
  }

  /** When scripts, users and SSH were last all read (epoch ms), or null. */
  get lastSlowRead(): number | null {
    return this.#lastSlowRead;
  }

  /** Poll now, as a refresh someone asked for (a paused controller tries to connect again). */
  refresh(): Promise<void> {
    if (this.#phase === 'paused') this.#phase = 'connect';
    this.#steady.refreshAsked = true;
    return this.#poller.pollNow();
  }

  replan(): void {
    this.#poller.replan();
  }

  /** The topic root the unit was last heard publishing under (carried to a session that replaces this one). */
  get heard(): string | null {
    return this.#steady.heard;
  }

  /**
   * The unit published under `root` (its saved topic): read the outlets now, after the poll running (if
   * any) — hints meanwhile share that one read — and from now on read them only at the safety interval.
   */
  hint(root: string, outlet: number | null): void {
    this.#steady.hint(root, outlet);
    // The poll after it plans with the safety interval (the Poller asks the policy after every poll).
    this.#poller.poke(0);
  }

  poke(delayMs: number): void {
    this.#poller.poke(delayMs);
  }

  /** The controller accepted a reboot: show it rebooting and probe until it answers again. */
  markRebooting(since: number, client: DliClient): void {
    const { live, options } = this.#c;
    this.#reboot = new RebootWatch(since, client.stats.challenges);
    this.#epoch++;
    this.#phase = 'rebooting';
    this.#failures = 0;
    live.pending.clear();
    live.set({ status: 'rebooting', problem: null, rebootingSince: since, nextAttemptAt: null });
    live.publish();
    this.#poller.poke(options.timing.rebootFirstMs);
  }

  /** Re-read scripts and threads, users and SSH (administrators), or some of them; FORBIDDEN empties them. */
  async readSlow(parts: readonly SlowPart[] = SLOW_PARTS): Promise<void> {
    const { live, options } = this.#c;
    const patch = await readSlowParts(await this.#c.client(), parts, this.#c.signal, live.facts.scripts);
    if (parts.length === SLOW_PARTS.length) this.#lastSlowRead = options.clock.now();
    live.set(patch);
    live.publish();
  }

  #nextDelay(): number | null {
    const { live, options } = this.#c;
    const publishing = this.#steady.publishing();
    return nextPollDelay(
      {
        phase: this.#phase,
        failures: this.#failures,
        pending: live.pending.size > 0,
        intervalMs: options.settings().pollIntervalMs,
        ...(publishing ? { publishing } : {}),
      },
      options.timing,
    );
  }

  async #tick(): Promise<void> {
    // Paused until the person acts (refresh, new password, certificate accepted).
    if (this.#phase === 'paused') return;
    const { live, options, signal } = this.#c;
    const startedAt = options.clock.now();
    const epoch = this.#epoch;
    try {
      if (this.#phase === 'rebooting') await this.#probeReboot();
      else if (this.#phase === 'connect') await this.#connect(epoch);
      else await this.#poll(startedAt, epoch);
    } catch (error) {
      if (signal.aborted) return;
      // A failure of a poll from before a reboot started says nothing about the reboot.
      if (epoch === this.#epoch)
        this.#failed(
          isPlugboardError(error)
            ? error
            : internalError(`poll ${this.#c.summary().name}`, error, options.log),
        );
    }
    if (signal.aborted) return;
    live.expirePending();
    options.hooks.polled(live.state, this.#failures);
  }

  /**
   * Read everything about the controller; `connected` runs as soon as it shows online. The outlets,
   * meters and capabilities are published as soon as they are read, before the identity strings: the
   * person sees live outlets after four requests instead of ten.
   */
  async #connect(epoch: number, connected?: () => void): Promise<void> {
    const { live, options } = this.#c;
    const client = await this.#c.client();
    const stale = (): boolean => epoch !== this.#epoch;
    const online = (): void => {
      this.#phase = 'steady';
      this.#failures = 0;
      live.publish();
    };
    const description = await client.describe({
      signal: this.#c.signal,
      priority: 'background',
      onLive: (read) => {
        if (stale()) return;
        live.applyDescription({ ...read, identity: live.facts.identity });
        this.#steady.listRead(options.clock.now());
        online();
        connected?.();
        options.hooks.polled(live.state, 0);
      },
    });
    if (stale()) return;
    live.set({ identity: description.identity });
    online();
    await this.#afterConnect(description);
  }

  /** The relay timing (for countdowns and deadlines) and, for administrators, scripts, users and SSH. */
  async #afterConnect(description: ControllerDescription): Promise<void> {
    const { live, options } = this.#c;
    const client = await this.#c.client();
    live.relayTiming = await client.system
      .relayTiming({ signal: this.#c.signal, priority: 'background' })
      .catch((error: unknown) => {
        this.#c.loggedAs('read the relay timing')(error);
        return live.relayTiming;
      });
    if (description.capabilities.isAdmin && options.visible())
      await this.readSlow().catch(this.#c.loggedAs('read scripts, users and SSH'));
  }

  async #poll(startedAt: number, epoch: number): Promise<void> {
    const read = await this.#steady.poll(startedAt, () => epoch === this.#epoch);
    if (read) this.#failures = 0;
  }

  async #probeReboot(): Promise<void> {
    const { live, options } = this.#c;
    const reboot = this.#reboot!;
    const client = await this.#c.client();
    const now = options.clock.now();
    try {
      // The normal request budget: a slow unit (5 s for the outlets) must be able to answer a probe.
      await client.outlets.list({ signal: this.#c.signal, priority: 'background' });
    } catch (error) {
      reboot.down();
      this.#failures++;
      if (!reboot.givenUp(now, options.timing.rebootGiveUpMs)) return;
      this.#reboot = null;
      this.#phase = 'connect';
      live.set({ rebootingSince: null });
      const seconds = Math.round(options.timing.rebootGiveUpMs / 1000);
      throw new PlugboardError(
        'UNREACHABLE',
        `${this.#c.summary().name} did not come back within ${seconds} s of the reboot. Check its power and network.`,
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
    live.forgetOutlets();
    live.set({ rebootingSince: null });
    await this.#connect(this.#epoch, () => {
      const summary = this.#c.summary();
      options.hooks.record({
        controllerId: summary.id,
        controllerName: summary.name,
        outlet: null,
        action: 'back online after the reboot',
        actor: SYSTEM_ACTOR,
        result: 'ok',
        error: null,
      });
    });
  }

  #failed(error: PlugboardError): void {
    if (error.code === 'CANCELLED') return;
    const { status, pause } = statusForError(error);
    // Nothing was sent: not a failed poll (no back-off, no "does not accept the login" notice).
    if (status !== 'password_needed') this.#failures++;
    this.#phase = pause ? 'paused' : 'connect';
    const { options } = this.#c;
    const next = nextAttemptAt(
      {
        phase: this.#phase,
        failures: this.#failures,
        pending: false,
        intervalMs: options.settings().pollIntervalMs,
      },
      options.timing,
      options.clock.now(),
    );
    this.#c.live.set({ status, problem: error.toContractError(), nextAttemptAt: next });
    this.#c.live.publish();
  }
}
