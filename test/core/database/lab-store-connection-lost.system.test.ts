/**
 * The lab store on PostgreSQL when the database goes away under a running query (a cluster of the
 * test's own, stopped at once): that query fails with its error, the process goes on (pg reports the dead
 * connection a second time, as an 'error' event on a client the pool does not watch while it is lent
 * out), and the store works again once the database is back.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPostgresStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { freshDatabase, startPostgresCluster, type PostgresCluster } from '../../system/postgres-cluster';

let cluster: PostgresCluster;
let store: LabStore | null = null;
beforeAll(async () => {
  cluster = await startPostgresCluster();
});
afterAll(async () => {
  await store?.close();
  await cluster?.stop();
});

it('a query under way when the database stops fails alone, and the store recovers', async () => {
  store = await openPostgresStore(await freshDatabase(cluster.url), '1.0.0');
  const uncaught: unknown[] = [];
  const keep = (error: unknown) => uncaught.push(error);
  process.on('uncaughtException', keep);
  try {
    // Lent out to a long query, the connection is not the pool's to watch when the server dies.
    const long = sql`select pg_sleep(60)`.execute(store.db).then(
      () => null,
      (error: unknown) => error,
    );
    const started = async () => {
      for (;;) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep(60)%' and state = 'active'`.execute(
          store!.db,
        );
        if (rows[0]!.n > 0) return;
      }
    };
    await started();
    await cluster.halt();
    expect(await long).toBeInstanceOf(Error);
    await cluster.resume();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(rows).toEqual([{ one: 1 }]);
    // An 'error' event nobody listened to would have crashed a service; here it would be caught.
    await new Promise((resolve) => setImmediate(resolve));
    expect(uncaught).toEqual([]);
  } finally {
    process.off('uncaughtException', keep);
  }
});
