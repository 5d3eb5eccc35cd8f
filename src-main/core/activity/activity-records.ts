/**
 * The activity log's rows in the lab store: appended in one transaction per batch (a counted refusal's
 * row is written again with its new count), read newest first through the indexed filters (controller
 * and outlet, person, door, each with the time range), read oldest first page by page for an export
 * (never the whole log in memory), and pruned by age.
 */
import type { Kysely, SelectQueryBuilder, sql as Sql } from 'kysely';
import type { ActivityEntry } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import type { LabStore } from '../database/lab-store';
import { inTransaction } from '../database/transaction';
import type { LabSchema, ActivityTable } from '../database/schema';

/** What a query narrows by (each field narrows; all absent: every entry). */
export interface RecordsFilter {
  controllerId?: string | undefined;
  outlet?: number | undefined;
  outletName?: string | undefined;
  who?: string | undefined;
  door?: string | undefined;
  /** Epoch ms: entries from then on (a counted refusal whose last repeat is then or later, too). */
  since?: number | undefined;
  /** Epoch ms: entries up to then. */
  until?: number | undefined;
  /** Only entries with a greater id. */
  after?: number | undefined;
}

/** Rows per page of an export. */
export const EXPORT_PAGE = 1_000;

export function rowOf(entry: ActivityEntry): ActivityTable {
  return {
    id: entry.id,
    time: entry.time,
    controller_id: entry.controllerId,
    controller_name: entry.controllerName,
    outlet: entry.outlet,
    outlet_name: entry.outletName ?? null,
    action: entry.action,
    door: entry.source,
    who: entry.who,
    who_folded: entry.who?.toLowerCase() ?? null,
    result: entry.result,
    error: entry.error ? JSON.stringify(entry.error) : null,
    batch: entry.batch ?? null,
    count: entry.count ?? null,
    last_time: entry.lastTime ?? entry.time,
  };
}

export function entryOf(row: ActivityTable): ActivityEntry {
  return {
    id: row.id,
    time: row.time,
    controllerId: row.controller_id,
    controllerName: row.controller_name,
    outlet: row.outlet,
    action: row.action,
    source: row.door as ActivityEntry['source'],
    who: row.who,
    result: row.result as ActivityEntry['result'],
    error: row.error === null ? null : (JSON.parse(row.error) as ActivityEntry['error']),
    ...(row.outlet_name !== null ? { outletName: row.outlet_name } : {}),
    ...(row.batch !== null ? { batch: row.batch } : {}),
    ...(row.count !== null ? { count: row.count, lastTime: row.last_time } : {}),
  };
}

type Query = SelectQueryBuilder<LabSchema, 'activity', ActivityTable>;

export class ActivityRecords {
  readonly #db: Kysely<LabSchema>;
  /** How long after its first a refusal may still be counted: how far back a range's start looks. */
  readonly #countedSpanMs: number;

  constructor(
    readonly store: LabStore,
    countedSpanMs = 60_000,
  ) {
    this.#db = store.db;
    this.#countedSpanMs = countedSpanMs;
  }

  /** Write `entries` in one transaction: new ones added, a counted refusal's row replaced. */
  async write(entries: readonly ActivityEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await inTransaction(this.#db, async (tx) => {
      // A few hundred rows per statement keeps within both engines' limits on parameters.
      for (let start = 0; start < entries.length; start += 200) {
        await tx
          .insertInto('activity')
          .values(entries.slice(start, start + 200).map(rowOf))
          .onConflict((conflict) =>
            conflict.column('id').doUpdateSet((excluded) => ({
              count: excluded.ref('excluded.count'),
              last_time: excluded.ref('excluded.last_time'),
            })),
          )
          .execute();
      }
    });
  }

  /**
   * Add entries read from elsewhere (an older Plugboard's file) in one transaction; an id already in the
   * store is left as it is. Answers how many rows were added.
   */
  async importAll(entries: readonly ActivityEntry[]): Promise<number> {
    let added = 0;
    await inTransaction(this.#db, async (tx) => {
      for (let start = 0; start < entries.length; start += 200) {
        const result = await tx
          .insertInto('activity')
          .values(entries.slice(start, start + 200).map(rowOf))
          .onConflict((conflict) => conflict.column('id').doNothing())
          .executeTakeFirst();
        added += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
    });
    return added;
  }

  /** The highest id in the store (0: none): new ids continue above it. */
  async lastId(): Promise<number> {
    const row = await this.#db
      .selectFrom('activity')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Newest first (or oldest first), at most `limit`, after the id `after` when given. */
  async select(
    filter: RecordsFilter & { limit?: number | undefined; order?: 'newest' | 'oldest' | undefined },
  ): Promise<ActivityEntry[]> {
    // Loaded here, not at start: a Core that never opens a store never loads the query layer.
    const { sql } = await import('kysely');
    let query = this.#filtered(filter, sql).orderBy('id', filter.order === 'oldest' ? 'asc' : 'desc');
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    try {
      return (await query.execute()).map(entryOf);
    } catch (error) {
      throw new PlugboardError(
        'STORE',
        `Plugboard could not read the activity log from ${this.store.where}.`,
        undefined,
        {
          cause: error,
          action:
            'Check that the database is running and reachable, then ask again; new entries wait in memory meanwhile.',
        },
      );
    }
  }

  /** Oldest first, a page at a time: an export of any size holds one page in memory. */
  async *pages(filter: RecordsFilter, pageSize = EXPORT_PAGE): AsyncGenerator<ActivityEntry[]> {
    let after = filter.after;
    for (;;) {
      const page = await this.select({ ...filter, after, order: 'oldest', limit: pageSize });
      if (page.length === 0) return;
      yield page;
      if (page.length < pageSize) return;
      after = page.at(-1)!.id;
    }
  }

  /** Remove every entry last touched before `before` (epoch ms); answers how many. */
  async prune(before: number): Promise<number> {
    // Through the index on time: `last_time` is at most the counted span after `time`.
    const result = await this.#db
      .deleteFrom('activity')
      .where('time', '<', before)
      .where('last_time', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  #filtered(filter: RecordsFilter, sql: typeof Sql): Query {
    let query = this.#db.selectFrom('activity').selectAll() as Query;
    if (filter.controllerId !== undefined) query = query.where('controller_id', '=', filter.controllerId);
    if (filter.outlet !== undefined) query = query.where('outlet', '=', filter.outlet);
    if (filter.door !== undefined) query = query.where('door', '=', filter.door);
    if (filter.who !== undefined) query = query.where('who_folded', '=', filter.who.toLowerCase());
    if (filter.outletName !== undefined) {
      const pattern = `%${filter.outletName.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      // The same escape character on both engines (SQLite's LIKE has none unless told).
      query = query.where(sql<boolean>`lower(outlet_name) like ${pattern} escape '\\'`);
    }
    if (filter.since !== undefined) {
      // `last_time` is at most the counted span after `time`: the index on time still narrows the range.
      query = query
        .where('time', '>=', filter.since - this.#countedSpanMs)
        .where('last_time', '>=', filter.since);
    }
    if (filter.until !== undefined) query = query.where('time', '<=', filter.until);
    if (filter.after !== undefined) query = query.where('id', '>', filter.after);
    return query;
  }
}
