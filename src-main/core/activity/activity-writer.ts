/**
 * Writes the activity log's entries to the lab store (one transaction per batch), or without a store to
 * its file: appends are gathered for a short while and written as one (the file is compacted once it
 * holds twice what memory keeps), and a write that fails (a full disk, a database that does not answer)
 * loses nothing: the entries stay queued and are written again later. The log says so once when writes
 * start failing, and once when they work again.
 *
 * An action answered to someone waits for its own entries (`committed`): it joins the next write, and
 * that write starts at once rather than after the gathering delay (a group commit: what arrives while a
 * write is under way goes in the next one). What no one waits for (the poller's own records) keeps the
 * delay.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ActivityEntry } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import { isDiskFull } from '../../shared/errors';
import { isStoreFull } from '../database/store-errors';
import type { ActivityRecords } from './activity-records';
import { appendWhole, jsonLines, rewriteWhole } from './activity-file';
import type { Clock, TimerHandle } from '../kernel/clock';

export interface ActivityWriterOptions {
  /** The JSON-lines file, when there is no lab store. */
  file: string;
  /** The lab store's rows: written there instead of the file. */
  records?: ActivityRecords | undefined;
  clock: Clock;
  log: Logger;
  /** How many entries memory keeps: the most a waiting queue holds, and half the file's bound. */
  keep: number;
  /** Lines the file held when it was read. */
  fileLines: number;
  /** What memory holds up to entry `upTo`, oldest first (what a compacted file holds). */
  kept(upTo: number): ActivityEntry[];
  /** Runs before each write (the log announces the counts that grew). */
  beforeFlush(): void;
  /** How long appends are gathered before one write, ms (default 200). */
  flushDelayMs?: number | undefined;
  /** How long to wait before writing again after a write failed, ms (default 5 000). */
  retryDelayMs?: number | undefined;
}

export class ActivityWriter {
  readonly #o: ActivityWriterOptions;
  /** Entries waiting to be written, by id (an entry that changed replaces its older version). */
  readonly #queued = new Map<number, ActivityEntry>();
  #timer: TimerHandle | null = null;
  #writing: Promise<void> = Promise.resolve();
  /** The write chained after the one under way and not started yet: later flushes join it. */
  #next: Promise<void> | null = null;
  #fileLines: number;
  /** Whether writes fail now (the log said so once). */
  #failing = false;
  /** Entries dropped from the queue while writes failed (more than memory keeps). */
  #dropped = 0;

  constructor(options: ActivityWriterOptions) {
    this.#o = options;
    this.#fileLines = options.fileLines;
  }

  /** Whether `id` waits to be written (what the store does not hold yet). */
  waiting(id: number): boolean {
    return this.#queued.has(id);
  }

  /** Where the entries go, for a sentence: the store or the file. */
  get #where(): string {
    return this.#o.records ? `the lab store ${this.#o.records.store.where}` : this.#o.file;
  }

  /** Write `entry` soon (again, if it changed since it was written). */
  queue(entry: ActivityEntry): void {
    this.#queued.set(entry.id, entry);
    this.schedule();
  }

  /** Run `beforeFlush` and write soon; while writes fail, only at the next retry. */
  schedule(): void {
    if (this.#timer !== null) return;
    const delay = this.#failing ? (this.#o.retryDelayMs ?? 5_000) : (this.#o.flushDelayMs ?? 200);
    const handle = this.#o.clock.setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, delay);
    handle.unref?.();
    this.#timer = handle;
  }

  /** Write what is queued one last time; say how many entries are lost if that fails too. */
  async close(): Promise<void> {
    await this.flush();
    if (this.#timer !== null) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#queued.size > 0)
      this.#o.log(
        `stopping with ${this.#queued.size} activity ${this.#queued.size === 1 ? 'entry' : 'entries'} not written to ${this.#where} (it could not be written)`,
      );
  }

  /** Write what is queued; resolves when it is on disk, or the write failed (it is then retried). */
  flush(): Promise<void> {
    if (this.#timer !== null) {
      this.#o.clock.clearTimeout(this.#timer);
      this.#timer = null;
    }
    this.#o.beforeFlush();
    if (this.#queued.size === 0) return this.#writing;
    if (this.#next) return this.#next;
    const next = this.#writing.then(() => {
      this.#next = null;
      return this.#write();
    });
    this.#next = next;
    this.#writing = next;
    return next;
  }

  /**
   * Resolves once the entries `ids` are written (true), or the write that should have taken them
   * failed (false: they stay queued and are retried as usual). While writes fail, it does not force
   * another try: it answers after the write under way, if any.
   */
  async committed(ids: readonly number[]): Promise<boolean> {
    const waits = () => ids.some((id) => this.#queued.has(id));
    if (!waits()) return true;
    if (this.#failing) await this.#writing;
    else await this.flush();
    return !waits();
  }

  async #write(): Promise<void> {
    const { file } = this.#o;
    const batch = [...this.#queued.values()];
    if (batch.length === 0) return;
    try {
      if (this.#o.records) await this.#o.records.write(batch);
      else {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        await appendWhole(file, jsonLines(batch));
      }
    } catch (error) {
      this.#failed(error);
      return;
    }
    // Written: unless an entry changed again meanwhile (its newer version stays queued).
    for (const entry of batch) if (this.#queued.get(entry.id) === entry) this.#queued.delete(entry.id);
    this.#fileLines += batch.length;
    if (this.#failing) this.#resumed(batch.length);
    if (!this.#o.records && this.#fileLines >= 2 * this.#o.keep) await this.#compact(batch.at(-1)!.id);
  }

  #failed(error: unknown): void {
    const waiting = this.#queued.size;
    // Waiting entries beyond what memory keeps are the oldest: memory no longer holds them either.
    for (const id of this.#queued.keys()) {
      if (this.#queued.size <= this.#o.keep) break;
      this.#queued.delete(id);
      this.#dropped++;
    }
    if (!this.#failing) {
      this.#failing = true;
      const what = `${waiting} ${waiting === 1 ? 'entry waits' : 'entries wait'} in memory and will be written as soon as it can`;
      if (isDiskFull(error) || isStoreFull(error))
        this.#o.log(
          `could not write the activity log (${this.#where}): the disk is full. ${what}; free some space on that disk.`,
        );
      else this.#o.log(`could not write the activity log (${this.#where}); ${what}`, error);
    }
    this.schedule();
  }

  #resumed(written: number): void {
    const lost = this.#dropped
      ? ` (${this.#dropped} older ones could not be kept: more came than the log holds while it could not write)`
      : '';
    this.#o.log(
      `the activity log (${this.#where}) is written again: ${written} waiting ${written === 1 ? 'entry is' : 'entries are'} in it now${lost}`,
    );
    this.#failing = false;
    this.#dropped = 0;
  }

  /**
   * Rewrite the file with what memory holds up to entry `upTo`, atomically. Newer entries are still
   * queued: the next flush appends them, so the file must not hold them yet.
   */
  async #compact(upTo: number): Promise<void> {
    const keep = this.#o.kept(upTo);
    try {
      await rewriteWhole(this.#o.file, jsonLines(keep));
      this.#fileLines = keep.length;
    } catch (error) {
      // The file is whole as it was: compaction is tried again after the next write.
      const full = isDiskFull(error);
      this.#o.log(
        `could not compact the activity log ${this.#o.file}${full ? ': the disk is full' : ''} (it is whole; tried again after the next write)`,
        full ? undefined : error,
      );
    }
  }
}
