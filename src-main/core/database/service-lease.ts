/**
 * The lease row that says which service leads the lab (PostgreSQL only: a SQLite store has one service).
 * Taken and renewed in one conditional UPDATE … RETURNING, with the expiry computed by the database's
 * own clock, so the machines' clocks never have to agree. The holder is a process (a token made at its
 * start), not a name: a service restarted under the same name is a new holder. `epoch` is the fencing
 * counter: it grows by one at each change of holder.
 */
import { sql, type Kysely } from 'kysely';
import type { LabSchema } from './schema';

/** Who holds the lease, as the database says. */
export interface LeaseHolder {
  name: string;
  address: string | null;
  epoch: number;
}

/** What one claim found: this process holds the lease now, or another does (or nobody, expired). */
export type LeaseClaim = { held: true; epoch: number } | { held: false; holder: LeaseHolder | null };

/** The lease as the leadership sees it: the SQL behind a small port, so its timing is tested alone. */
export interface LeaseStore {
  /** Take the lease, or renew it while held, for `leaseMs` from the database's now. */
  claim(leaseMs: number): Promise<LeaseClaim>;
  /** Give it up at once (a clean stop), when this process still holds it. */
  release(): Promise<void>;
}

/** The database's clock, in epoch ms. */
const DB_NOW = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** The lease row of a PostgreSQL lab store, claimed as `name` (at `address`) by the process `token`. */
export function postgresLease(
  db: Kysely<LabSchema>,
  self: { name: string; address: string | null; token: string },
): LeaseStore {
  return {
    async claim(leaseMs) {
      const taken = await db
        .updateTable('service_lease')
        .set({
          epoch: sql<number>`case when holder_token = ${self.token} then epoch else epoch + 1 end`,
          holder: self.name,
          holder_address: self.address,
          holder_token: self.token,
          expires_at: sql<number>`${DB_NOW} + ${Math.round(leaseMs)}`,
        })
        .where('id', '=', 1)
        .where((eb) =>
          eb.or([
            eb('holder_token', '=', self.token),
            eb('holder_token', 'is', null),
            eb('expires_at', '<=', DB_NOW),
          ]),
        )
        .returning(['epoch'])
        .executeTakeFirst();
      if (taken) return { held: true, epoch: Number(taken.epoch) };
      const row = await db
        .selectFrom('service_lease')
        .select(['holder', 'holder_address', 'epoch', sql<boolean>`expires_at > ${DB_NOW}`.as('current')])
        .where('id', '=', 1)
        .executeTakeFirst();
      return {
        held: false,
        holder:
          row?.holder && row.current
            ? { name: row.holder, address: row.holder_address, epoch: Number(row.epoch) }
            : null,
      };
    },
    async release() {
      await db
        .updateTable('service_lease')
        .set({ expires_at: 0 })
        .where('id', '=', 1)
        .where('holder_token', '=', self.token)
        .execute();
    },
  };
}
