/**
 * The reads of a steady controller (online, not rebooting): the scheduled poll, a refresh someone asked
 * for, and the unit's own hints. A unit that publishes its outlet changes over MQTT (its saved topic
 * heard since it was set) has its outlets read at once on each message — never taking the message for
 * the state — and otherwise only at the safety interval (poll-policy.ts), its meters and an
 * administrator's slow parts staying on their own schedule.
 */
import { watchesMeters, type PollSituation } from './poll-policy';
import { othersWanted, readPlan, type Hinted } from './poll-read';
import type { ControllerSummary } from '../../../src-preload/model';
import type { DliClient } from '../../dli/client';
import type { MeterReading, Outlet } from '../../dli/types';
import type { SessionLive } from './session-live';
import type { SessionOptions } from './session-ports';

/** What the polling uses of its session. */
export interface PollingContext {
  options: SessionOptions;
  live: SessionLive;
  summary(): ControllerSummary;
  client(): Promise<DliClient>;
  signal: AbortSignal;
  loggedAs(what: string): (error: unknown) => void;
}

export class SteadyReads {
  readonly #c: PollingContext;
  readonly #readSlow: (parts?: ['threads']) => Promise<void>;
  readonly #lastSlowRead: () => number | null;
  /** The next poll is a refresh someone asked for. */
  refreshAsked = false;
  /** The next poll reads these outlets at once: the unit said something about them (MQTT). */
  #hinted: Hinted | null = null;
  /** When the whole outlet list was last read (epoch ms), or null. */
  #lastOutletRead: number | null = null;
  /** The topic root the unit was heard publishing under, or null: it publishes while that is its topic. */
  #heard: string | null;

  constructor(
    context: PollingContext,
    readSlow: (parts?: ['threads']) => Promise<void>,
    lastSlowRead: () => number | null,
  ) {
    this.#c = context;
    this.#readSlow = readSlow;
    this.#lastSlowRead = lastSlowRead;
    this.#heard = context.options.heard ?? null;
  }

  /** The topic root the unit was last heard publishing under (carried to a session that replaces this one). */
  get heard(): string | null {
    return this.#heard;
  }

  /**
   * The unit published under `root` about `outlet` (1-based; null: not known): the next poll reads it,
   * with every other outlet named before that poll starts.
   */
  hint(root: string, outlet: number | null): void {
    this.#heard = root;
    const before = this.#hinted;
    if (outlet === null || before === 'all') this.#hinted = 'all';
    else this.#hinted = new Set([...(before ?? []), outlet]);
  }

  /** The whole outlet list was just read (a connect). */
  listRead(at: number): void {
    this.#lastOutletRead = at;
  }

  /** The unit publishes its outlet changes: its saved topic was heard since it was set. */
  publishing(): PollSituation['publishing'] {
    const { live, options } = this.#c;
    const topic = this.#c.summary().mqttTopic;
    if (topic === null || topic !== this.#heard) return undefined;
    const capabilities = live.facts.capabilities;
    return {
      safetyMs: options.settings().unitSafetyPollMs,
      sinceOutletsMs: this.#lastOutletRead === null ? null : options.clock.now() - this.#lastOutletRead,
      othersWanted: othersWanted({
        hasMeters: capabilities?.meters ?? false,
        isAdmin: capabilities?.isAdmin ?? false,
        visible: options.visible(),
        watchedMeters: watchesMeters(options.settings(), this.#c.summary().id),
        threadsRunning: false,
      }),
    };
  }

  /**
   * One steady poll, started at `startedAt`; `current` says whether what it read still counts (no reboot
   * began meanwhile). Resolves true when the unit answered a read, false when nothing was due.
   */
  async poll(startedAt: number, current: () => boolean): Promise<boolean> {
    const { live, options } = this.#c;
    const client = await this.#c.client();
    const capabilities = live.facts.capabilities;
    const known = live.outlets?.map((o) => o.number) ?? null;
    const why = {
      asked: this.refreshAsked,
      hinted: this.#hinted,
      lastOutletRead: this.#lastOutletRead,
      intervalMs: options.settings().pollIntervalMs,
      publishing: this.publishing(),
      pendingOutlets: [...live.pending.byOutlet.keys()],
      knownOutlets: known,
    };
    this.refreshAsked = false;
    this.#hinted = null;
    const plan = readPlan(
      why,
      {
        hasMeters: capabilities?.meters ?? false,
        isAdmin: capabilities?.isAdmin ?? false,
        visible: options.visible(),
        watchedMeters: watchesMeters(options.settings(), this.#c.summary().id),
        confirming: live.pending.size > 0,
        lastSlowRead: this.#lastSlowRead(),
        threadsRunning: (live.facts.scripts?.threads.length ?? 0) > 0,
        now: options.clock.now(),
      },
      options.timing,
    );
    // A unit's hint is read ahead of background work queued for it: someone may be watching the change.
    const call = { signal: this.#c.signal, priority: why.hinted ? 'interactive' : 'background' } as const;
    let read: { outlets: Outlet[] | null; meters: MeterReading[] | null } | null = null;
    if (plan.outlets === 'all') read = await client.refresh({ meters: plan.meters, ...call });
    else if (plan.outlets !== 'none') {
      // The outlets a message named, with the others as last read: only these changed as far as is known.
      const fresh = new Map((await client.outlets.read(plan.outlets, call)).map((o) => [o.number, o]));
      read = { outlets: live.outlets?.map((o) => fresh.get(o.number) ?? o) ?? null, meters: null };
    } else if (plan.meters) read = { outlets: null, meters: await client.meters(call) };
    if (!current()) return false;
    if (read) {
      if (read.outlets) {
        if (plan.outlets === 'all') this.#lastOutletRead = startedAt;
        live.applyOutlets(read.outlets, startedAt);
      }
      live.set({ status: 'online', problem: null, lastUpdate: options.clock.now(), nextAttemptAt: null });
      if (plan.meters) live.applyMeters(read.meters);
      live.publish();
    }
    if (plan.slow) await this.#readSlow().catch(this.#c.loggedAs('read scripts, users and SSH'));
    else if (plan.threads)
      await this.#readSlow(['threads']).catch(this.#c.loggedAs('read the running scripts'));
    return read !== null;
  }
}
