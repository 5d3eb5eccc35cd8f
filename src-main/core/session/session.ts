/**
 * One saved controller while Plugboard runs: its client (one per controller, so the digest nonce is
 * reused), its live state (session-live.ts), its polling (session-polling.ts), the changes it is
 * waiting to see confirmed (session-pending.ts), its meter history. Outlet and admin actions
 * (outlet-actions.ts, admin-actions.ts) use only its API: the client, pending changes, recording in
 * the activity log, and slow reads.
 */
import type { Actor, ControllerState, ControllerSummary } from '../../../src-preload/model';
import type { DliClient } from '../../dli/client';
import type { ControllerDescription, Outlet } from '../../dli/types';
import type { NewActivity } from '../activity/activity-log';
import { newClient } from './controller-client';
import { isKeychainTrouble, passwordNeeded } from './credentials-needed';
import type { MeterSeries } from '../meters/meter-history';
import { SessionLive, type LiveFacts } from './session-live';
import type { PendingMarks, PendingRequest } from './session-pending';
import { SessionPolling } from './session-polling';
import type { SessionOptions } from './session-ports';
import type { SlowPart } from './slow-reads';

export type { SessionHooks, SessionOptions } from './session-ports';

export class ControllerSession {
  #summary: ControllerSummary;
  readonly #options: SessionOptions;
  readonly #abort = new AbortController();
  #client: DliClient | null = null;
  #clientPromise: Promise<DliClient> | null = null;
  readonly #live: SessionLive;
  readonly #polling: SessionPolling;
  #adminRead: Promise<void> | null = null;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#summary = options.summary;
    this.#live = new SessionLive(options, () => this.#summary);
    this.#polling = new SessionPolling({
      options,
      live: this.#live,
      summary: () => this.#summary,
      client: () => this.client(),
      signal: this.#abort.signal,
      loggedAs: (what) => this.#loggedAs(what),
    });
  }

  get summary(): ControllerSummary {
    return this.#summary;
  }

  /**
   * The saved controller's name, colour or MQTT topic changed: nothing to reconnect (a topic changes how
   * often the outlets are read: re-planned).
   */
  rename(summary: ControllerSummary): void {
    const topicChanged = summary.mqttTopic !== this.#summary.mqttTopic;
    this.#summary = summary;
    if (topicChanged) this.#polling.replan();
  }

  /** Refuse (RESERVED) unless `actor` may switch these outlets: someone else's reservation covers none. */
  assertMayAct(actor: Actor, outlets: 'all' | readonly number[]): void {
    this.#options.hooks.mayAct?.(this.#summary.id, actor, outlets);
  }

  /** The Core's clock. */
  now(): number {
    return this.#options.clock.now();
  }

  get state(): ControllerState {
    return this.#live.state;
  }

  get lastOutlets(): readonly Outlet[] | null {
    return this.#live.outlets;
  }

  get history(): MeterSeries {
    return this.#live.history;
  }

  /** Meter ids that changed while this session ran (old → new), as the history followed them. */
  get meterMoves(): ReadonlyMap<string, string> {
    return this.#live.meterMoves;
  }

  /** Start polling; with a description (just verified by "add controller") the first connect is skipped. */
  start(description?: ControllerDescription): void {
    this.#polling.start(description);
  }

  async stop(): Promise<void> {
    this.#polling.stop();
    this.#abort.abort();
    this.#live.pending.clear();
    const client = this.#client ?? (await this.#clientPromise?.catch(() => null)) ?? null;
    this.#client = null;
    await client?.close().catch(() => undefined);
  }

  /** The client, made on first use from the saved secret. */
  client(): Promise<DliClient> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#clientPromise ??= (async () => {
      const summary = this.#summary;
      // No secret: "password needed" before any client exists, so no request goes out without one.
      const secret = await this.#options.secret(summary).catch((error: unknown) => {
        throw isKeychainTrouble(error) ? passwordNeeded(summary, 'keychain-unavailable', error) : error;
      });
      if (secret === null || secret === '') throw passwordNeeded(summary, 'not-kept');
      const firmware = this.#live.facts.identity?.firmware;
      this.#client = newClient(
        this.#summary,
        secret,
        firmware,
        this.#options.requestTimeoutMs,
        this.#options.beforeWrite,
      );
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
    return this.#polling.refresh();
  }

  /** The interval, visibility or a threshold changed: re-plan, and catch up on what became due. */
  replan(): void {
    this.#polling.replan();
  }

  /**
   * The unit published something under its saved topic root (MQTT) about `outlet` (1-based; null: not
   * known): read it now, coalesced with the poll running; from now on the whole outlet list is read at
   * the safety interval (steady-reads.ts).
   */
  hint(root: string, outlet: number | null): void {
    this.#polling.hint(root, outlet);
  }

  /** The topic root the unit was heard publishing under, or null. */
  get heard(): string | null {
    return this.#polling.heard;
  }

  /** Poll soon (the window just became visible: meters and the slow parts are due). */
  pollSoon(): void {
    this.#polling.poke(0);
  }

  /** Record in the activity log, as this controller. */
  record(entry: Omit<NewActivity, 'controllerId' | 'controllerName'>): void {
    this.#options.hooks.record({
      controllerId: this.#summary.id,
      controllerName: this.#summary.name,
      ...entry,
    });
  }

  /** A request was just sent (at `since`): its outlets show pending, pushed after it is on the wire. */
  markPending(request: PendingRequest, since: number): PendingMarks {
    const marks = this.#live.pending.mark(request, since);
    this.#live.publishSoon();
    return marks;
  }

  /** The controller answered: failed outlets stop being pending; quick polls confirm the others. */
  pendingAnswered(marks: PendingMarks, failed: readonly number[]): void {
    this.#live.pending.answered(marks, failed, this.now());
    this.#live.publishSoon();
    this.#polling.poke(0);
  }

  /** The answer never came: the outlets stay pending until a poll tells; returns those outlets. */
  pendingUnanswered(marks: PendingMarks): number[] {
    const waiting = this.#live.pending.unanswered(marks, this.now());
    this.#live.publishSoon();
    this.#polling.poke(0);
    return waiting;
  }

  /** The request failed: its outlets stop being pending. */
  unmarkPending(marks: PendingMarks): void {
    this.#live.pending.unmark(marks);
    this.#live.publishSoon();
  }

  /** Apply a change the controller accepted to the last known outlets (e.g. a rename), without polling. */
  patchOutlet(number: number, patch: Partial<Outlet>): void {
    this.#live.patchOutlet(number, patch);
  }

  patchLive(patch: Partial<Omit<LiveFacts, 'id'>>): void {
    this.#live.set(patch);
    this.#live.publish();
  }

  /** The controller accepted a reboot: show it rebooting and probe until it answers again. */
  markRebooting(since: number, client: DliClient): void {
    this.#polling.markRebooting(since, client);
  }

  /**
   * For a background read whose failure only waits for the next schedule: log it with its cause (not
   * when the session is stopping), and carry on.
   */
  #loggedAs(what: string): (error: unknown) => void {
    return (error) => {
      if (!this.#abort.signal.aborted) this.#options.log(`could not ${what} of ${this.#summary.name}`, error);
    };
  }

  /**
   * Scripts and threads, users and SSH, read now unless the slow schedule read them within its interval:
   * for a caller that needs them while no window shows the controller (the schedule reads them only
   * then). The unit's refusal or failure is thrown; callers meanwhile share one read.
   */
  readAdminIfDue(): Promise<void> {
    // Another login's refusals need no asking: only an administrator's reads them.
    if (this.state.capabilities?.isAdmin === false) return Promise.resolve();
    const last = this.#polling.lastSlowRead;
    if (last !== null && this.now() - last < this.#options.timing.slowEveryMs) return Promise.resolve();
    this.#adminRead ??= this.#polling.readSlow().finally(() => {
      this.#adminRead = null;
    });
    return this.#adminRead;
  }

  /** Read again in the background what an action changed; the next poll would catch it anyway. */
  rereadSlow(parts: SlowPart[]): void {
    void this.#polling.readSlow(parts).catch(this.#loggedAs(`read again what changed (${parts.join(', ')})`));
  }
}
