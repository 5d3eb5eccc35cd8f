/**
 * Reservations in the lab store: one row per reservation and one per outlet it covers (a whole
 * controller is one row with no outlet), written as taken. The store is what decides when two Cores
 * share it: PostgreSQL refuses a second holder's overlapping cell itself (an exclusion constraint,
 * migrations.ts), SQLite checks and inserts in one write transaction. This book keeps the current ones
 * in memory too, for the switch rule, which is synchronous (it runs before the per-controller queue):
 * loaded at start, replaced after every change made here and whenever it is read again (`reload`).
 */
import type { Kysely } from 'kysely';
import type { Reservation, ReservationCell, ReservationTarget } from '../../../src-preload/model';
import type { LabStore, RunNow } from '../database/lab-store';
import type { LabSchema, ReservationCellTable, ReservationTable } from '../database/schema';
import { inTransaction } from '../database/transaction';

/** PostgreSQL's exclusion_violation: the constraint found another holder's cell there at that time. */
const EXCLUSION_VIOLATION = '23P01';

function targetColumns(
  target: ReservationTarget,
): Pick<ReservationTable, 'controller_id' | 'outlet' | 'group_id'> {
  switch (target.kind) {
    case 'outlet':
      return { controller_id: target.controllerId, outlet: target.outlet, group_id: null };
    case 'controller':
      return { controller_id: target.controllerId, outlet: null, group_id: null };
    case 'group':
      return { controller_id: null, outlet: null, group_id: target.groupId };
  }
}

function targetOf(row: ReservationTable): ReservationTarget {
  if (row.kind === 'group') return { kind: 'group', groupId: row.group_id ?? '' };
  if (row.kind === 'outlet')
    return { kind: 'outlet', controllerId: row.controller_id ?? '', outlet: row.outlet ?? 0 };
  return { kind: 'controller', controllerId: row.controller_id ?? '' };
}

function rowOf(r: Reservation): ReservationTable {
  return {
    id: r.id,
    kind: r.target.kind,
    ...targetColumns(r.target),
    holder: r.holder,
    door: r.door,
    reason: r.reason,
    created_at: r.createdAt,
    expires_at: r.expiresAt,
  };
}

function cellRows(r: Reservation, covers: readonly ReservationCell[] = r.covers): ReservationCellTable[] {
  return covers.map((cell) => ({
    reservation_id: r.id,
    controller_id: cell.controllerId,
    outlet: cell.outlet,
    holder: r.holder,
    created_at: r.createdAt,
    expires_at: r.expiresAt,
  }));
}

function reservationsOf(rows: ReservationTable[], cells: ReservationCellTable[]): Reservation[] {
  const covers = new Map<string, ReservationCell[]>();
  for (const cell of cells) {
    const list = covers.get(cell.reservation_id) ?? [];
    list.push({ controllerId: cell.controller_id, outlet: cell.outlet });
    covers.set(cell.reservation_id, list);
  }
  return rows.flatMap((row) => {
    const cellsOfRow = covers.get(row.id);
    if (!cellsOfRow) return [];
    return [
      {
        id: row.id,
        target: targetOf(row),
        covers: cellsOfRow,
        holder: row.holder,
        door: row.door as Reservation['door'],
        reason: row.reason,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      },
    ];
  });
}

/** Whether two cells of one controller meet (a whole controller meets each of its outlets). */
const meet = (a: ReservationCell, b: { controller_id: string; outlet: number | null }) =>
  a.controllerId === b.controller_id && (a.outlet === null || b.outlet === null || a.outlet === b.outlet);

export class ReservationBook {
  readonly #store: LabStore;
  readonly #db: Kysely<LabSchema>;
  #current: Reservation[] = [];
  /** SQLite's data version at the last read: another connection's commit changes it. */
  #seen = -1;

  private constructor(store: LabStore) {
    this.#store = store;
    this.#db = store.db;
  }

  /** The store, for a sentence: its file, or PostgreSQL's host and database. */
  get where(): string {
    return this.#store.where;
  }

  /** The book of `store`, its reservations current at `now` read. */
  static async open(store: LabStore, now: number): Promise<ReservationBook> {
    const book = new ReservationBook(store);
    await book.reload(now);
    return book;
  }

  /**
   * What the store held at the last read or change here (some may have expired since). On SQLite, a
   * commit of another connection since then is seen at once: the book is read again, synchronously.
   */
  current(now: number): Reservation[] {
    const readNow = this.#store.readNow;
    if (readNow) {
      const version = readNow.dataVersion();
      if (version !== this.#seen) {
        this.#seen = version;
        this.#current = reservationsOf(readNow.run(this.#rows(now)), readNow.run(this.#cells(now)));
      }
    }
    return structuredClone(this.#current);
  }

  /** Read the reservations current at `now` from the store again. */
  async reload(now: number): Promise<void> {
    const seen = this.#store.readNow?.dataVersion() ?? -1;
    this.#current = reservationsOf(await this.#rows(now).execute(), await this.#cells(now).execute());
    this.#seen = seen;
  }

  #rows(now: number) {
    return this.#db.selectFrom('reservation').selectAll().where('expires_at', '>', now);
  }

  #cells(now: number) {
    return this.#db.selectFrom('reservation_cell').selectAll().where('expires_at', '>', now);
  }

  /**
   * Write `reservation` unless another holder's current one covers any of its cells: false then (the
   * book is read again, so the caller can say whose it is). Ended ones leave the store on the way.
   */
  async add(reservation: Reservation, now: number): Promise<boolean> {
    const { immediate } = this.#store;
    let added: boolean;
    if (immediate) {
      added = await immediate((run) => {
        this.#prune(run, now);
        const held = run(
          this.#db
            .selectFrom('reservation_cell')
            .select(['controller_id', 'outlet'])
            .where('expires_at', '>', now)
            .where('holder', '<>', reservation.holder)
            .where(
              'controller_id',
              'in',
              reservation.covers.map((c) => c.controllerId),
            ),
        );
        if (reservation.covers.some((cell) => held.some((h) => meet(cell, h)))) return false;
        run(this.#db.insertInto('reservation').values(rowOf(reservation)));
        run(this.#db.insertInto('reservation_cell').values(cellRows(reservation)));
        return true;
      });
    } else {
      try {
        await inTransaction(this.#db, async (tx) => {
          await tx.deleteFrom('reservation_cell').where('expires_at', '<=', now).execute();
          await tx.deleteFrom('reservation').where('expires_at', '<=', now).execute();
          await tx.insertInto('reservation').values(rowOf(reservation)).execute();
          await tx.insertInto('reservation_cell').values(cellRows(reservation)).execute();
        });
        added = true;
      } catch (error) {
        if ((error as { code?: unknown }).code !== EXCLUSION_VIOLATION) throw error;
        added = false;
      }
    }
    await this.reload(now);
    return added;
  }

  /** End a reservation (released, broken): gone from the store. */
  async remove(id: string, now: number): Promise<void> {
    await inTransaction(this.#db, async (tx) => {
      await tx.deleteFrom('reservation_cell').where('reservation_id', '=', id).execute();
      await tx.deleteFrom('reservation').where('id', '=', id).execute();
    });
    await this.reload(now);
  }

  /** End what current reservations cover of one controller (a reservation left with nothing is gone). */
  async endOnController(controllerId: string, now: number): Promise<void> {
    await inTransaction(this.#db, async (tx) => {
      await tx.deleteFrom('reservation_cell').where('controller_id', '=', controllerId).execute();
      await tx
        .deleteFrom('reservation')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('reservation_cell')
                .select('reservation_cell.reservation_id')
                .whereRef('reservation_cell.reservation_id', '=', 'reservation.id'),
            ),
          ),
        )
        .execute();
    });
    await this.reload(now);
  }

  /**
   * Add reservations kept elsewhere before (config.json), in one transaction, as they are (they were
   * checked when taken); one whose id is already here is left as it is. How many were new.
   */
  async importAll(list: readonly Reservation[], now: number): Promise<number> {
    let added = 0;
    await inTransaction(this.#db, async (tx) => {
      for (const reservation of list) {
        const there = await tx
          .selectFrom('reservation')
          .select('id')
          .where('id', '=', reservation.id)
          .executeTakeFirst();
        if (there) continue;
        await tx.insertInto('reservation').values(rowOf(reservation)).execute();
        if (reservation.covers.length > 0)
          await tx.insertInto('reservation_cell').values(cellRows(reservation)).execute();
        added += 1;
      }
    });
    await this.reload(now);
    return added;
  }

  #prune(run: RunNow, now: number): void {
    run(this.#db.deleteFrom('reservation_cell').where('expires_at', '<=', now));
    run(this.#db.deleteFrom('reservation').where('expires_at', '<=', now));
  }
}
