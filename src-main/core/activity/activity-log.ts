/**
 * The activity log: everything done through Plugboard and every outside change it noticed. Recent entries
 * live in memory (bounded rings); the log itself is kept in the lab store (activity-records.ts), queried
 * there by the filters and the time range, and pruned by age (activity-retention.ts). Without a store
 * (a Core given a folder but no store, as before the store) it is kept in a JSON-lines file, compacted
 * once it holds twice what memory keeps, its bad lines (a crash mid-write, a hand edit) skipped.
 * Appends are batched; a call answered to someone waits for its own entries to be written (group
 * commit: activity-answers.ts), the poller's records never wait.
 * Entries hold no secrets by construction (names, verbs and error messages, which never quote a password
 * or token), and no control or text-direction character: every text is neutralised as it is recorded.
 *
 * The audit trail survives abuse:
 * - Refusals (someone else's reservation, a role) are counted, not piled up: the same refusal of the
 *   same client (door and who, controller, outlet, verb, code, reservation) within a minute is one entry
 *   with a `count`. They live in a ring of their own, so no number of them can push out what was done.
 * - A full disk loses nothing acknowledged: what could not be written waits in memory (as much as memory
 *   keeps) and is written once there is room; the log says so once, and again when it is written.
 * - Ids stay unique across restarts even when the last entries never reached the file: an id is at least
 *   the clock in microseconds (activity-ids.ts), so a restarted log starts above every id handed out.
 */
import type { ActivityEntry, Actor } from '../../../src-preload/model';
import { neutralise, TEXT_LIMITS } from '../../shared/text';
import { ActivityBatches } from './activity-batches';
import { noteRecorded, type EntryKeeper } from './activity-answers';
import { merged, oldestMerged } from './activity-merge';
import { readActivityFile } from './activity-file';
import { nextActivityId } from './activity-ids';
import { isRefusal, refusalKey, type RefusalSlot } from './activity-refusals';
import { newestOfBoth, Ring } from './activity-ring';
import type { TimerHandle } from '../kernel/clock';
import type { ActivityEnrichment, ActivityFilter, ActivityLogOptions, NewActivity } from './activity-types';

export {
  OUTSIDE_ACTOR,
  SYSTEM_ACTOR,
  type ActivityEnrichment,
  type ActivityFilter,
  type ActivityLogOptions,
  type NewActivity,
} from './activity-types';
import { ActivityWriter } from './activity-writer';

export class ActivityLog implements EntryKeeper {
  readonly #options: ActivityLogOptions;
  readonly #done: Ring<ActivityEntry>;
  readonly #refusals: Ring<RefusalSlot>;
  /** The refusal entry still counting repeats, per refusal key. */
  readonly #counting = new Map<string, RefusalSlot>();
  /** Refusal entries whose count grew since they were last announced, and when they will be. */
  readonly #grown = new Set<RefusalSlot>();
  #announcing: TimerHandle | null = null;
  #lastId = 0;
  readonly #writer: ActivityWriter | null = null;
  #enrichment: ActivityEnrichment | null = null;
  readonly #batches = new ActivityBatches();

  constructor(options: ActivityLogOptions) {
    this.#options = options;
    this.#done = new Ring(options.limit ?? 10_000);
    this.#refusals = new Ring(options.refusalLimit ?? 1_000);
    if (options.stored) {
      this.#lastId = options.stored.lastId;
      this.#writer = new ActivityWriter({
        file: '',
        records: options.stored.records,
        clock: options.clock,
        log: options.log,
        keep: this.#done.capacity + this.#refusals.capacity,
        fileLines: 0,
        kept: () => [],
        beforeFlush: () => this.#announceGrown(),
        flushDelayMs: options.flushDelayMs,
        retryDelayMs: options.retryDelayMs,
      });
      return;
    }
    if (!options.file) return;
    // Read at start, synchronously: a few megabytes at most, and ids must continue before any new entry.
    const fileLines = this.#load(options.file);
    this.#writer = new ActivityWriter({
      file: options.file,
      clock: options.clock,
      log: options.log,
      keep: this.#done.capacity + this.#refusals.capacity,
      fileLines,
      kept: (upTo) =>
        this.list()
          .reverse()
          .filter((entry) => entry.id <= upTo && (options.persist?.(entry) ?? true)),
      beforeFlush: () => this.#announceGrown(),
      flushDelayMs: options.flushDelayMs,
      retryDelayMs: options.retryDelayMs,
    });
  }

  get size(): number {
    return this.#done.size + this.#refusals.size;
  }

  /** Name outlets and attribute outside changes from now on (wired once the sessions exist). */
  enrich(enrichment: ActivityEnrichment): void {
    this.#enrichment = enrichment;
  }

  /** Run one action that sends several requests as one batch (see ActivityBatches.asOneAction). */
  asOneAction<T>(run: () => Promise<T>): Promise<T> {
    return this.#batches.asOneAction(run);
  }

  /** A script thread Plugboard started, on `actor`'s behalf (see fleet-scripts.ts for the rule). */
  scriptStarted(controllerId: string, threadId: string, fn: string, actor: Actor): void {
    this.#enrichment?.scriptStarted(controllerId, threadId, fn, actor);
  }

  /** Record something done or seen. */
  add(input: NewActivity): ActivityEntry {
    const entry = this.#entryOf(input, {});
    this.#done.push(entry);
    this.#recorded(entry);
    if (this.#writer && (this.#options.persist?.(entry) ?? true)) noteRecorded(entry);
    return entry;
  }

  /** Resolves once `entries` are written (true), or their write failed (false: they wait, retried). */
  committed(entries: readonly ActivityEntry[]): Promise<boolean> {
    if (!this.#writer) return Promise.resolve(true);
    return this.#writer.committed(entries.map((entry) => entry.id));
  }

  /**
   * Record a refusal (someone else's reservation, a role): the same refusal of the same client within
   * the window is counted into its first entry instead of adding one, and refusals are kept apart, so
   * however many come, they never push out what was done.
   */
  refused(input: NewActivity): ActivityEntry {
    const now = input.time ?? this.#options.clock.now();
    const key = refusalKey(input);
    const slot = this.#counting.get(key);
    const window = this.#options.refusalWindowMs ?? 60_000;
    if (slot && !slot.gone && now - slot.entry.time < window && now >= slot.entry.time) {
      slot.entry = { ...slot.entry, count: (slot.entry.count ?? 1) + 1, lastTime: now };
      this.#grown.add(slot);
      this.#queue(slot.entry);
      this.#announceSoon();
      return slot.entry;
    }
    const entry = this.#entryOf({ ...input, time: now }, { count: 1, lastTime: now });
    const fresh: RefusalSlot = { key, entry, gone: false };
    this.#counting.set(key, fresh);
    const dropped = this.#refusals.push(fresh);
    if (dropped) this.#forget(dropped);
    this.#recorded(entry);
    return entry;
  }

  /**
   * Newest first, at most `limit`, optionally of one controller, outlet (number or name), person or
   * door, or within [`since`, `until`].
   */
  list(filter: ActivityFilter = {}): ActivityEntry[] {
    if (filter.order === 'oldest')
      return this.list({ ...filter, order: 'newest', limit: undefined })
        .reverse()
        .slice(0, filter.limit);
    const limit = filter.limit ?? Number.POSITIVE_INFINITY;
    const who = filter.who?.toLowerCase();
    const outletName = filter.outletName?.toLowerCase();
    const out: ActivityEntry[] = [];
    const refusals = (function* (slots: Iterable<RefusalSlot>) {
      for (const slot of slots) yield slot.entry;
    })(this.#refusals.newestFirst());
    for (const entry of newestOfBoth(this.#done.newestFirst(), refusals)) {
      if (out.length >= limit || (filter.after !== undefined && entry.id <= filter.after)) break;
      if (filter.since !== undefined && (entry.lastTime ?? entry.time) < filter.since) continue;
      if (filter.until !== undefined && entry.time > filter.until) continue;
      if (outletName !== undefined && !entry.outletName?.toLowerCase().includes(outletName)) continue;
      if (filter.controllerId !== undefined && entry.controllerId !== filter.controllerId) continue;
      if (filter.outlet !== undefined && entry.outlet !== filter.outlet) continue;
      if (filter.door !== undefined && entry.source !== filter.door) continue;
      if (who !== undefined && entry.who?.toLowerCase() !== who) continue;
      out.push(entry);
    }
    return out;
  }

  /**
   * Newest first, as `list`, but every entry the lab store keeps (`list` has memory's alone), with what
   * memory holds that the store does not (yet). Without a store, `list`.
   */
  async query(filter: ActivityFilter = {}): Promise<ActivityEntry[]> {
    const records = this.#options.stored?.records;
    if (!records) return this.list(filter);
    await this.flush();
    const unstored = this.#unstored({ ...filter, order: undefined, limit: undefined });
    return merged(await records.select(filter), unstored, filter.order ?? 'newest', filter.limit);
  }

  /** Oldest first, a page at a time (an export of a year holds one page in memory). */
  async *oldestFirst(filter: Omit<ActivityFilter, 'limit' | 'order'> = {}): AsyncGenerator<ActivityEntry[]> {
    const records = this.#options.stored?.records;
    if (!records) {
      yield this.list(filter).reverse();
      return;
    }
    await this.flush();
    yield* oldestMerged(records.pages(filter), this.#unstored({ ...filter, order: undefined }).reverse());
  }

  /** What memory holds that the store does not: a demo controller's entries, entries still waiting. */
  #unstored(filter: ActivityFilter): ActivityEntry[] {
    const writer = this.#writer!;
    return this.list({ ...filter, limit: undefined }).filter(
      (entry) => !(this.#options.persist?.(entry) ?? true) || writer.waiting(entry.id),
    );
  }

  /** Write what is queued; resolves when it is on disk, or the write failed (it is then retried). */
  flush(): Promise<void> {
    if (this.#writer) return this.#writer.flush();
    this.#announceGrown();
    return Promise.resolve();
  }

  /** Write what waits, for the last time (the Core stops); says so when some of it cannot be written. */
  async close(): Promise<void> {
    this.#announceGrown();
    await this.#writer?.close();
  }

  #entryOf(input: NewActivity, counted: Pick<ActivityEntry, 'count' | 'lastTime'>): ActivityEntry {
    const enrich = this.#enrichment;
    const actor = (input.actor.door === 'outside' ? enrich?.attribute(input) : null) ?? input.actor;
    const time = input.time ?? this.#options.clock.now();
    const id = (this.#lastId = nextActivityId(this.#lastId, this.#options.clock.now()));
    const outletName =
      input.outletName ??
      (input.outlet === null ? null : (enrich?.outletName(input.controllerId, input.outlet) ?? null));
    const text = (value: string) => neutralise(value, TEXT_LIMITS.activity);
    return {
      id,
      time,
      controllerId: input.controllerId,
      controllerName: text(input.controllerName),
      outlet: input.outlet,
      action: text(input.action),
      source: actor.door,
      who: actor.who === null ? null : text(actor.who),
      result: input.result,
      error: input.error && {
        ...input.error,
        message: text(input.error.message),
        ...(input.error.action !== undefined ? { action: text(input.error.action) } : {}),
      },
      ...(outletName !== null ? { outletName: text(outletName) } : {}),
      ...(input.outlet !== null ? { batch: this.#batches.of(input, actor, id) } : {}),
      ...(counted.count !== undefined ? counted : {}),
    };
  }

  #recorded(entry: ActivityEntry): void {
    this.#queue(entry);
    this.#options.onAdded?.(entry);
  }

  /** Queue `entry` for the file, unless there is none or it is not written (a demo controller's). */
  #queue(entry: ActivityEntry): void {
    if (this.#writer && (this.#options.persist?.(entry) ?? true)) this.#writer.queue(entry);
  }

  /** A refusal entry pushed out of memory by newer ones: it counts no more repeats. */
  #forget(slot: RefusalSlot): void {
    slot.gone = true;
    this.#grown.delete(slot);
    if (this.#counting.get(slot.key) === slot) this.#counting.delete(slot.key);
  }

  /** Tell listeners of the counts that grew a moment from now: once per moment, not once per refusal. */
  #announceSoon(): void {
    if (this.#announcing !== null) return;
    this.#announcing = this.#options.clock.setTimeout(
      () => this.#announceGrown(),
      this.#options.flushDelayMs ?? 200,
    );
    this.#announcing.unref?.();
  }

  #announceGrown(): void {
    if (this.#announcing !== null) this.#options.clock.clearTimeout(this.#announcing);
    this.#announcing = null;
    for (const slot of this.#grown) this.#options.onAdded?.(slot.entry);
    this.#grown.clear();
  }

  /** Read the file into memory; answers how many lines it holds. */
  #load(file: string): number {
    let read: ReturnType<typeof readActivityFile>;
    try {
      read = readActivityFile(file);
    } catch (error) {
      this.#options.log('could not read the activity log; starting a new one', error);
      return 0;
    }
    if (!read) return 0;
    if (read.torn)
      this.#options.log('the activity log ended in part of a line (a write cut short); removed it');
    if (read.skipped) this.#options.log(`skipped ${read.skipped} unreadable line(s) of the activity log`);
    for (const entry of read.entries) {
      if (isRefusal(entry)) this.#refusals.push({ key: '', entry, gone: true });
      else this.#done.push(entry);
    }
    this.#lastId = read.entries.at(-1)?.id ?? 0;
    return read.lines;
  }
}
