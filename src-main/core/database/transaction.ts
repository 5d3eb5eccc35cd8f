/**
 * A transaction that keeps its first error. Kysely's own rolls back after a failed statement and throws
 * what the rollback said; but SQLite ends the transaction itself on some errors (a full disk: SQLITE_FULL
 * rolls it back), so the rollback then fails with "no transaction is active" and the reason (the disk is
 * full) would be lost. Here the rollback's own failure is dropped and the statement's error thrown.
 */
import type { Kysely } from 'kysely';

export async function inTransaction<DB, T>(db: Kysely<DB>, work: (tx: Kysely<DB>) => Promise<T>): Promise<T> {
  // Loaded here, not at start: a Core that never opens a store never loads the query layer.
  const { sql } = await import('kysely');
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
