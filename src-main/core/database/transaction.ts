/**
 * A transaction that keeps its first error. Kysely's own rolls back after a failed statement and throws
 * what the rollback said; but SQLite ends the transaction itself on some errors (a full disk: SQLITE_FULL
 * rolls it back), so the rollback then fails with "no transaction is active" and the reason (the disk is
 * full) would be lost. Here the rollback's own failure is dropped and the statement's error thrown.
 */
import { sql, type Kysely } from 'kysely';

export async function inTransaction<DB, T>(db: Kysely<DB>, work: (tx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`BEGIN`.execute(connection);
    let result: T;
    try {
      result = await work(connection);
    } catch (error) {
      await sql`ROLLBACK`.execute(connection).catch(() => undefined);
      throw error;
    }
    await sql`COMMIT`.execute(connection);
    return result;
  });
}
