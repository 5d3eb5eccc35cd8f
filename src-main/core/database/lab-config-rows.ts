/**
 * The rows of the lab's configuration (`lab_config`, migration 0004-lab-config) as saved/lab-config.ts
 * reads and writes them: all of them at once, the highest revision (the configuration's), and a write
 * transaction that no other Plugboard's write can come between — an advisory transaction lock on
 * PostgreSQL, a write transaction taken at once (BEGIN IMMEDIATE) on SQLite.
 */
import { sql, type Kysely } from 'kysely';
import type { LabStore } from './lab-store';
import type { LabConfigTable, LabSchema } from './schema';
import { inTransaction } from './transaction';

/** The advisory lock every Plugboard takes to write the lab's configuration (any constant of its own). */
const CONFIG_LOCK = 0x504c4243; // "PLBC"

/** The configuration as read: its values (a forgotten key has none), its revision, every key with a row. */
export interface LabConfigCopy {
  values: Map<string, unknown>;
  /** The highest revision read: the configuration's. */
  revision: number;
  /** Every key written once (a forgotten one's row stays, its value null). */
  keys: Set<string>;
}

/** Every row, as one read. */
export async function readLabConfig(store: LabStore): Promise<LabConfigCopy> {
  const rows = await store.db.selectFrom('lab_config').select(['key', 'value', 'revision']).execute();
  const values = new Map<string, unknown>();
  let revision = 0;
  for (const row of rows) {
    revision = Math.max(revision, Number(row.revision));
    if (row.value !== null) values.set(row.key, JSON.parse(row.value) as unknown);
  }
  return { values, revision, keys: new Set(rows.map((row) => row.key)) };
}

/** The configuration's revision now (0: none yet): what `watch` polls. */
export async function highestRevision(store: LabStore): Promise<number> {
  const row = await store.db
    .selectFrom('lab_config')
    .select((eb) => eb.fn.max('revision').as('revision'))
    .executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** The configuration's revision and row count, as one query. */
const stateOf = (db: Kysely<LabSchema>) =>
  db
    .selectFrom('lab_config')
    .select((eb) => [eb.fn.max('revision').as('revision'), eb.fn.countAll().as('rows')]);

/** Write one key's row, new or not. */
const upsert = (db: Kysely<LabSchema>, row: LabConfigTable) =>
  db
    .insertInto('lab_config')
    .values(row)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        value: row.value,
        revision: row.revision,
        written_at: row.written_at,
        written_by: row.written_by,
      }),
    );

/**
 * In one write transaction, alone among the Plugboards writing the configuration: `decide` sees the
 * configuration's revision and row count and gives the rows to write, or null for none (it may throw:
 * nothing is written). Returns the revision written, or null.
 */
export async function writeLabConfig(
  store: LabStore,
  decide: (revision: number, rows: number) => LabConfigTable[] | null,
): Promise<number | null> {
  const apply = (state: { revision: unknown; rows: unknown } | undefined) => {
    const current = Number(state?.revision ?? 0);
    const rows = decide(current, Number(state?.rows ?? 0));
    return { rows, revision: rows === null ? null : (rows[0]?.revision ?? current) };
  };
  if (store.immediate) {
    return store.immediate((run) => {
      const { rows, revision } = apply(run(stateOf(store.db))[0]);
      for (const row of rows ?? []) run(upsert(store.db, row));
      return revision;
    });
  }
  return inTransaction(store.db, async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${CONFIG_LOCK})`.execute(tx);
    const { rows, revision } = apply(await stateOf(tx).executeTakeFirst());
    for (const row of rows ?? []) await upsert(tx, row).execute();
    return revision;
  });
}
