/**
 * Sequence runs in the lab store: one row per run, written on every change of the run by the process
 * running it (the run as JSON, with the machine and process that run it), so the next start can say
 * where a killed run stopped, as the files of `sequence-runs/` did. Writes go out one after another in
 * the order made (a later state never overtaken by an earlier one on a pool of connections); a failed
 * write is logged, as a file's was. The runs are read once, when the store is opened.
 */
import { hostname } from 'node:os';
import type { SequenceRun } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import type { LabStore } from '../database/lab-store';
import type { SequenceRunTable } from '../database/schema';
import { inTransaction } from '../database/transaction';
import type { RunKeeper, StoredRun } from './sequence-file';

function rowOf(stored: StoredRun, host: string): SequenceRunTable {
  return {
    run_id: stored.run.runId,
    host,
    pid: stored.pid,
    started_at: stored.run.startedAt,
    updated_at: stored.updatedAt,
    status: stored.run.status,
    run: JSON.stringify(stored.run),
  };
}

export class SequenceRunBook implements RunKeeper {
  readonly #store: LabStore;
  readonly #host = hostname();
  #stored: StoredRun[] = [];
  readonly #log: Logger;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(store: LabStore, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  /** The book of `store`, with every run in it read; a failed write is told to `log`. */
  static async open(store: LabStore, log: Logger): Promise<SequenceRunBook> {
    const book = new SequenceRunBook(store, log);
    const rows = await store.db.selectFrom('sequence_run').selectAll().orderBy('started_at').execute();
    book.#stored = rows.map((row) => ({
      run: JSON.parse(row.run) as SequenceRun,
      pid: row.pid,
      host: row.host,
      updatedAt: row.updated_at,
    }));
    return book;
  }

  readAll(): StoredRun[] {
    return structuredClone(this.#stored);
  }

  async running(): Promise<StoredRun[]> {
    // After this process's own writes: a run it just ended is not read back as running.
    await this.settled();
    const rows = await this.#store.db
      .selectFrom('sequence_run')
      .selectAll()
      .where('status', '=', 'running')
      .orderBy('started_at')
      .execute();
    return rows.map((row) => ({
      run: JSON.parse(row.run) as SequenceRun,
      pid: row.pid,
      host: row.host,
      updatedAt: row.updated_at,
    }));
  }

  write(run: SequenceRun, now: number): void {
    const row = rowOf({ run, pid: process.pid, updatedAt: now }, this.#host);
    this.#then(`could not record the progress of sequence ${run.name}`, () =>
      this.#store.db
        .insertInto('sequence_run')
        .values(row)
        .onConflict((c) =>
          c.column('run_id').doUpdateSet({
            host: row.host,
            pid: row.pid,
            updated_at: row.updated_at,
            status: row.status,
            run: row.run,
          }),
        )
        .execute(),
    );
  }

  remove(runId: string): void {
    this.#then(`could not forget sequence run ${runId}`, () =>
      this.#store.db.deleteFrom('sequence_run').where('run_id', '=', runId).execute(),
    );
  }

  /** Every write made so far, done (or logged as failed). */
  settled(): Promise<void> {
    return this.#queue.then(() => undefined);
  }

  /**
   * Add runs kept in files before, in one transaction; one whose id is already here is left as it is.
   * How many were new.
   */
  async importAll(list: readonly StoredRun[]): Promise<number> {
    let added = 0;
    await inTransaction(this.#store.db, async (tx) => {
      for (const stored of list) {
        const there = await tx
          .selectFrom('sequence_run')
          .select('run_id')
          .where('run_id', '=', stored.run.runId)
          .executeTakeFirst();
        if (there) continue;
        await tx.insertInto('sequence_run').values(rowOf(stored, this.#host)).execute();
        added += 1;
      }
    });
    const rows = new Set(this.#stored.map((s) => s.run.runId));
    for (const stored of list)
      if (!rows.has(stored.run.runId)) this.#stored.push({ ...stored, host: this.#host });
    this.#stored.sort((a, b) => a.run.startedAt - b.run.startedAt);
    return added;
  }

  #then(failure: string, write: () => Promise<unknown>): void {
    this.#queue = this.#queue.then(write).catch((error: unknown) => this.#log(failure, error));
  }
}
