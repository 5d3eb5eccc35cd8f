/**
 * Failed sign-ins, slowed and then locked, per name tried and per client address, kept in the lab store
 * (sign_in_failure) so a restart or another service of the lab does not forget them.
 *
 * A name (whether or not such an account exists, so a stranger learns nothing from it) may fail 4 times
 * freely; from the 5th failure on, the next try must wait 1 s, then 2, 4, 8 and 16 s; the 10th failure
 * locks it for 15 minutes. An address (a whole office behind one router may share it) fails 20 times
 * freely, then waits likewise, and is locked at its 30th failure. A try during a wait or a lock is refused
 * without looking at the password, and counts for nothing. Failures older than 15 minutes are forgotten;
 * a successful sign-in forgets its name's (not its address's).
 */
import type { Kysely } from 'kysely';
import type { LabSchema } from '../database/schema';

export interface LimitPolicy {
  /** Failures allowed before each try must wait. */
  free: number;
  /** The failure that locks. */
  lockAt: number;
}

export const NAME_POLICY: LimitPolicy = { free: 4, lockAt: 10 };
export const ADDRESS_POLICY: LimitPolicy = { free: 20, lockAt: 30 };
export const LOCK_MS = 15 * 60_000;
/** Failures further apart than this start counting again. */
export const FAILURE_MEMORY_MS = 15 * 60_000;
const MAX_WAIT_MS = 16_000;

/** Why a try may not be made now, and until when. */
export interface Held {
  kind: 'name' | 'address';
  locked: boolean;
  until: number;
}

export const nameKey = (name: string): string => `name:${name}`;
export const addressKey = (address: string): string => `address:${address}`;

/** How long the try after `failures` must wait (0: none), and whether it locks. */
function after(failures: number, policy: LimitPolicy, lastAt: number): number {
  if (failures >= policy.lockAt) return lastAt + LOCK_MS;
  if (failures <= policy.free) return 0;
  return lastAt + Math.min(MAX_WAIT_MS, 1000 * 2 ** (failures - policy.free - 1));
}

export class SignInLimits {
  constructor(private readonly db: Kysely<LabSchema>) {}

  /** The wait or lock that holds a try by `name` from `address` at `now`, or null. */
  async held(name: string, address: string, now: number): Promise<Held | null> {
    const rows = await this.db
      .selectFrom('sign_in_failure')
      .selectAll()
      .where('key', 'in', [nameKey(name), addressKey(address)])
      .execute();
    let found: Held | null = null;
    for (const row of rows) {
      if (row.locked_until <= now) continue;
      const kind = row.key.startsWith('name:') ? 'name' : 'address';
      const policy = kind === 'name' ? NAME_POLICY : ADDRESS_POLICY;
      const held: Held = { kind, locked: row.failures >= policy.lockAt, until: row.locked_until };
      if (!found || held.until > found.until) found = held;
    }
    return found;
  }

  /** Count a failed try by `name` from `address`; what now holds the next one (null: nothing). */
  async failed(name: string, address: string, now: number): Promise<Held | null> {
    await this.db.transaction().execute(async (tx) => {
      // Names and addresses that stopped failing long ago are forgotten, so guesses do not pile up.
      await tx
        .deleteFrom('sign_in_failure')
        .where('last_at', '<', now - FAILURE_MEMORY_MS)
        .where('locked_until', '<=', now)
        .execute();
      for (const [key, policy] of [
        [nameKey(name), NAME_POLICY],
        [addressKey(address), ADDRESS_POLICY],
      ] as const) {
        const row = await tx
          .selectFrom('sign_in_failure')
          .selectAll()
          .where('key', '=', key)
          .executeTakeFirst();
        const fresh = !row || now - row.last_at > FAILURE_MEMORY_MS || row.failures >= policy.lockAt;
        const failures = fresh ? 1 : row.failures + 1;
        const values = { failures, last_at: now, locked_until: after(failures, policy, now) };
        if (row) await tx.updateTable('sign_in_failure').set(values).where('key', '=', key).execute();
        else
          await tx
            .insertInto('sign_in_failure')
            .values({ key, ...values })
            .execute();
      }
    });
    return this.held(name, address, now);
  }

  /** A successful sign-in by `name`: its failures are forgotten. */
  async succeeded(name: string): Promise<void> {
    await this.db.deleteFrom('sign_in_failure').where('key', '=', nameKey(name)).execute();
  }

  /** An administrator's unlock (a new password, enabling): the name's failures are forgotten. */
  async forget(name: string): Promise<void> {
    await this.succeeded(name);
  }
}
