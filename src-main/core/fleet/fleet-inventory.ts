/**
 * The fleet inventory, kept by the Core: rows built from every saved controller's live
 * state and what was last known of it (so an offline controller shows its last values, marked), and the
 * users and SSH that are not read yet, read on demand — a few controllers at a time, in the background,
 * never holding up the answer (the window gets them as `state/changed`).
 */
import type { ControllerState, InventoryRow } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import type { Clock } from '../kernel/clock';
import type { ControllerRegistry } from '../saved/registry';
import type { SessionManager } from '../session/sessions';
import { loadInventoryCache, saveInventoryCache } from './inventory-cache';
import { factsOf, inventoryRows, mergeFacts, type KnownFacts } from './inventory-rows';
import { readSlowParts } from '../session/slow-reads';
import type { ControllerSession } from '../session/session';

/** What the inventory reads of the Core (the Core's context passes itself). */
export interface InventoryContext {
  clock: Clock;
  log: Logger;
  registry: ControllerRegistry;
  sessions: SessionManager;
  /** Resolves once every saved controller has its session. */
  started: Promise<void>;
}

/** Reads of users and SSH at once, at most. */
const CONCURRENCY = 4;
/** A controller whose users or SSH could not be read is asked again after this long, ms. */
const RETRY_MS = 60_000;
/** A background read gives up after this long, ms. */
const READ_TIMEOUT_MS = 30_000;
/** The cache file is written when something other than the last-seen time changed, or this long after, ms. */
const SAVE_EVERY_MS = 60_000;

export class FleetInventory {
  readonly #ctx: InventoryContext;
  readonly #known: Map<string, KnownFacts>;
  readonly #file: string | null;
  #savedAt = 0;
  #saving: Promise<void> = Promise.resolve();
  readonly #tried = new Map<string, number>();
  readonly #queue: string[] = [];
  readonly #reading = new Set<string>();
  #waiters: (() => void)[] = [];

  /** `file`: the cache of last known values (inventory-cache.ts); null keeps them in memory only. */
  constructor(ctx: InventoryContext, file: string | null = null) {
    this.#ctx = ctx;
    this.#file = file;
    this.#known = file ? loadInventoryCache(file) : new Map();
  }

  /** A pushed state: remember what an online controller told. */
  seen(state: ControllerState): void {
    if (state.status !== 'online') return;
    const before = this.#known.get(state.id);
    const now = mergeFacts(before, factsOf(state));
    this.#known.set(state.id, now);
    const changed =
      !before ||
      (Object.keys(now) as (keyof KnownFacts)[]).some(
        (key) => key !== 'lastSeen' && key !== 'outletsOn' && now[key] !== before[key],
      );
    if (changed || this.#ctx.clock.now() - this.#savedAt >= SAVE_EVERY_MS) this.#save();
  }

  /** Resolves when the cache file holds what is known (tests; a Core's end). */
  saved(): Promise<void> {
    return this.#saving;
  }

  #save(): void {
    const file = this.#file;
    if (!file) return;
    this.#savedAt = this.#ctx.clock.now();
    // Saved controllers only: demo controllers vanish at restart.
    const saved = new Set(
      this.#ctx.registry
        .list()
        .filter((c) => !c.demo)
        .map((c) => c.id),
    );
    const keep = new Map([...this.#known].filter(([id]) => saved.has(id)));
    this.#saving = this.#saving
      .then(() => saveInventoryCache(file, keep))
      .catch((error: unknown) => this.#ctx.log('could not write the inventory cache', error));
  }

  /** The rows now; users and SSH missing on online administrators are read in the background. */
  rows(): InventoryRow[] {
    const controllers = this.#ctx.registry.list().map((summary) => ({
      summary,
      state: this.#ctx.sessions.stateOf(summary.id),
      known: this.#known.get(summary.id),
    }));
    for (const { summary, state } of controllers) if (this.#missing(state)) this.#enqueue(summary.id);
    return inventoryRows(controllers);
  }

  /**
   * Connect every saved controller (a lazy Core starts their sessions, a few at a time) and read what is
   * missing, then the rows; what has not answered by `timeoutMs` shows as it is.
   */
  async rowsWhenRead(timeoutMs: number): Promise<InventoryRow[]> {
    await this.#ctx.started;
    const ids = this.#ctx.registry.list().map((summary) => summary.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      // Kept referenced: the reads may wait on the pollers' timers, which are unref'd, and a CLI whose event
      // loop empties while it waits ends without its answer.
      timer = setTimeout(resolve, timeoutMs);
    });
    const work = async (): Promise<void> => {
      const pending = [...ids];
      const worker = async (): Promise<void> => {
        for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
          const session = await this.#ctx.sessions.open(id).catch(() => undefined);
          if (!session) continue;
          if (session.state.status === 'connecting' || this.#ctx.sessions.lazy)
            await session.refresh().catch(() => undefined);
          if (this.#missing(session.state)) await this.#read(session).catch(() => undefined);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    };
    await Promise.race([work(), deadline]);
    clearTimeout(timer);
    return this.rows();
  }

  /** Resolves when no background read is queued or running (tests). */
  idle(): Promise<void> {
    if (!this.#queue.length && !this.#reading.size) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #missing(state: ControllerState): boolean {
    if (state.status !== 'online' || !state.capabilities?.isAdmin) return false;
    if (state.users !== null && state.sshEnabled !== null) return false;
    const tried = this.#tried.get(state.id);
    return tried === undefined || this.#ctx.clock.now() - tried >= RETRY_MS;
  }

  #enqueue(id: string): void {
    if (this.#reading.has(id) || this.#queue.includes(id)) return;
    this.#queue.push(id);
    this.#pump();
  }

  #pump(): void {
    while (this.#reading.size < CONCURRENCY && this.#queue.length) {
      const id = this.#queue.shift()!;
      const session = this.#ctx.sessions.find(id);
      if (!session) continue;
      this.#reading.add(id);
      void this.#read(session)
        .catch((error: unknown) =>
          this.#ctx.log(`could not read users and SSH of ${session.summary.name}`, error),
        )
        .finally(() => {
          this.#reading.delete(id);
          this.#pump();
        });
    }
    if (!this.#queue.length && !this.#reading.size) {
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const wake of waiters) wake();
    }
  }

  async #read(session: ControllerSession): Promise<void> {
    this.#tried.set(session.state.id, this.#ctx.clock.now());
    const client = await session.client();
    const patch = await readSlowParts(client, ['users', 'ssh'], AbortSignal.timeout(READ_TIMEOUT_MS));
    // Not when the controller was removed or reconnected meanwhile: its new session reads for itself.
    if (this.#ctx.sessions.find(session.state.id) === session) session.patchLive(patch);
  }
}
