/**
 * The lab store's migrations: versioned, in code (the bundle carries them, no folder to find), the same
 * for SQLite and PostgreSQL, run by Kysely's Migrator at start in one transaction. Each migration ends by
 * writing its number as the schema's version (plugboard_schema), in the same transaction.
 *
 * Before migrating, the version in the store is read: a store written by a newer Plugboard (a version
 * this one does not know) is refused with a sentence naming both, and nothing is touched. Later parts of
 * Plugboard (accounts, sessions, reservations, the lab's configuration) add their tables as new migrations at the end of the list;
 * a migration is never changed once released.
 */
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { PlugboardError } from '../../shared/errors';
import type { LabSchema } from './schema';
import { isStoreBusy } from './store-errors';

export type Engine = 'sqlite' | 'postgres';

interface Step {
  name: string;
  up(db: Kysely<unknown>, engine: Engine): Promise<void>;
}

/** An integer that holds an activity id or an epoch ms exactly (SQLite's integer is 64 bits already). */
const wide = (engine: Engine) => (engine === 'sqlite' ? 'integer' : 'bigint');

const STEPS: readonly Step[] = [
  {
    name: '0001-activity',
    async up(db, engine) {
      await db.schema
        .createTable('plugboard_schema')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('written_by', 'text', (c) => c.notNull())
        .execute();
      // SQLite: an `integer primary key` is the row id itself, so the table needs no second index.
      await db.schema
        .createTable('activity')
        .addColumn('id', wide(engine), (c) => c.primaryKey())
        .addColumn('time', wide(engine), (c) => c.notNull())
        .addColumn('controller_id', 'text', (c) => c.notNull())
        .addColumn('controller_name', 'text', (c) => c.notNull())
        .addColumn('outlet', 'integer')
        .addColumn('outlet_name', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('door', 'text', (c) => c.notNull())
        .addColumn('who', 'text')
        .addColumn('who_folded', 'text')
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('batch', wide(engine))
        .addColumn('count', 'integer')
        .addColumn('last_time', wide(engine), (c) => c.notNull())
        .execute();
      // The filters of the window, the CLI and the JSON API, each with the time range.
      const indexes: [string, string[]][] = [
        ['activity_time', ['time']],
        ['activity_outlet_time', ['controller_id', 'outlet', 'time']],
        ['activity_who_time', ['who_folded', 'time']],
        ['activity_door_time', ['door', 'time']],
      ];
      for (const [name, columns] of indexes)
        await db.schema.createIndex(name).on('activity').columns(columns).execute();
    },
  },
  {
    name: '0002-reservations',
    async up(db, engine) {
      // A reservation as taken: its target, who holds it, why, and from when until when.
      await db.schema
        .createTable('reservation')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('controller_id', 'text')
        .addColumn('outlet', 'integer')
        .addColumn('group_id', 'text')
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('door', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_at', wide(engine), (c) => c.notNull())
        .addColumn('expires_at', wide(engine), (c) => c.notNull())
        .execute();
      // One row per outlet it covers (outlet null: the whole controller), fixed when it is taken.
      await db.schema
        .createTable('reservation_cell')
        .addColumn('reservation_id', 'text', (c) =>
          c.notNull().references('reservation.id').onDelete('cascade'),
        )
        .addColumn('controller_id', 'text', (c) => c.notNull())
        .addColumn('outlet', 'integer')
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('created_at', wide(engine), (c) => c.notNull())
        .addColumn('expires_at', wide(engine), (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('reservation_cell_controller')
        .on('reservation_cell')
        .columns(['controller_id', 'expires_at'])
        .execute();
      await db.schema
        .createIndex('reservation_cell_reservation')
        .on('reservation_cell')
        .column('reservation_id')
        .execute();
      if (engine !== 'postgres') return;
      // PostgreSQL itself refuses two cells of different holders on the same outlet at the same time:
      // a whole controller is the range of every outlet, and the times are epoch ms as everywhere in
      // the store. SQLite has no such constraint: the take checks and inserts in one write transaction.
      await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);
      await sql`ALTER TABLE reservation_cell ADD CONSTRAINT reservation_cell_one_holder EXCLUDE USING gist (
        controller_id WITH =,
        int4range(coalesce(outlet, 1), coalesce(outlet, 2147483646), '[]') WITH &&,
        int8range(created_at, expires_at) WITH &&,
        holder WITH <>
      )`.execute(db);
    },
  },
  {
    name: '0003-sequence-runs',
    async up(db, engine) {
      // A sequence run as last written by the process that runs it (the run itself as JSON).
      await db.schema
        .createTable('sequence_run')
        .addColumn('run_id', 'text', (c) => c.primaryKey())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .addColumn('started_at', wide(engine), (c) => c.notNull())
        .addColumn('updated_at', wide(engine), (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('run', 'text', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0004-lab-config',
    async up(db, engine) {
      // The lab's configuration on PostgreSQL (saved/lab-config.ts): one row per key of what config.json
      // keeps for the lab (controllers, groups, settings), its value as JSON (null: the key forgotten),
      // and the revision of the write that last changed it (the highest one names the configuration's).
      await db.schema
        .createTable('lab_config')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text')
        .addColumn('revision', wide(engine), (c) => c.notNull())
        .addColumn('written_at', wide(engine), (c) => c.notNull())
        .addColumn('written_by', 'text', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0005-service-lease',
    async up(db, engine) {
      // Which service leads the lab (service-lease.ts): one row, taken and renewed by the database's
      // clock. Created on SQLite too (one schema), where nothing uses it: one service alone leads.
      await db.schema
        .createTable('service_lease')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('holder', 'text')
        .addColumn('holder_address', 'text')
        .addColumn('holder_token', 'text')
        .addColumn('epoch', wide(engine), (c) => c.notNull())
        .addColumn('expires_at', wide(engine), (c) => c.notNull())
        .execute();
      await (db as Kysely<LabSchema>)
        .insertInto('service_lease')
        .values({ id: 1, holder: null, holder_address: null, holder_token: null, epoch: 0, expires_at: 0 })
        .execute();
    },
  },
  {
    name: '0006-promised-switches',
    async up(db, engine) {
      // An outlet switched off by a delayed cycle that promised to switch it back on, while the promise
      // stands: what a process killed before the "on" leaves for the next Core to report.
      await db.schema
        .createTable('promised_switch')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('controller_id', 'text', (c) => c.notNull())
        .addColumn('controller_name', 'text', (c) => c.notNull())
        .addColumn('outlet', 'integer', (c) => c.notNull())
        .addColumn('outlet_name', 'text')
        .addColumn('what', 'text', (c) => c.notNull())
        .addColumn('door', 'text', (c) => c.notNull())
        .addColumn('who', 'text', (c) => c.notNull())
        .addColumn('asked_at', wide(engine), (c) => c.notNull())
        .addColumn('due_at', wide(engine), (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0007-accounts',
    async up(db, engine) {
      // People who sign in: a name (folded to lower case), a role and where it applies (the contract's
      // Scope as JSON), and a password's scrypt hash with its parameters (null: no password sign-in).
      await db.schema
        .createTable('account')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', wide(engine), (c) => c.notNull())
        .addColumn('disabled_at', wide(engine))
        .execute();
      // A signed-in session: only the SHA-256 of its token is kept (the client alone has the token).
      await db.schema
        .createTable('account_session')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('account', 'text', (c) => c.notNull().references('account.name').onDelete('cascade'))
        .addColumn('created_at', wide(engine), (c) => c.notNull())
        .addColumn('last_used_at', wide(engine), (c) => c.notNull())
        .addColumn('expires_at', wide(engine), (c) => c.notNull())
        .addColumn('revoked_at', wide(engine))
        .addColumn('address', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('account_session_account')
        .on('account_session')
        .column('account')
        .execute();
      // Failed sign-ins lately, per name tried and per client address: what slows and then locks them.
      await db.schema
        .createTable('sign_in_failure')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_at', wide(engine), (c) => c.notNull())
        .addColumn('locked_until', wide(engine), (c) => c.notNull())
        .execute();
    },
  },
  {
    name: '0008-account-identities',
    async up(db) {
      // Who an account is at an identity provider: its issuer and subject, which never change, so a
      // person renamed at the provider signs in to the same account (the name is kept from the first time).
      await db.schema
        .createTable('account_identity')
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('account', 'text', (c) => c.notNull().references('account.name').onDelete('cascade'))
        .addPrimaryKeyConstraint('account_identity_pk', ['issuer', 'subject'])
        .execute();
      await db.schema
        .createIndex('account_identity_account')
        .on('account_identity')
        .column('account')
        .execute();
    },
  },
];

/** The newest schema this Plugboard knows. */
export const SCHEMA_VERSION = STEPS.length;

function provider(engine: Engine, writtenBy: string): MigrationProvider {
  return {
    getMigrations: async () => {
      const migrations: Record<string, Migration> = {};
      for (const [index, step] of STEPS.entries()) {
        migrations[step.name] = {
          up: async (db) => {
            await step.up(db, engine);
            const store = db as Kysely<LabSchema>;
            await store.deleteFrom('plugboard_schema').execute();
            await store
              .insertInto('plugboard_schema')
              .values({ id: 1, version: index + 1, written_by: writtenBy })
              .execute();
          },
        };
      }
      return migrations;
    },
  };
}

/** The schema's version in the store: 0 when it has none yet. */
export async function storedVersion(db: Kysely<LabSchema>): Promise<{ version: number; writtenBy: string }> {
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.name === 'plugboard_schema')) return { version: 0, writtenBy: '' };
  const row = await db.selectFrom('plugboard_schema').select(['version', 'written_by']).executeTakeFirst();
  return { version: row?.version ?? 0, writtenBy: row?.written_by ?? '' };
}

/**
 * Bring the store to SCHEMA_VERSION, or refuse a newer one untouched. `where` names the store in the
 * refusal (a file, or a PostgreSQL host and database); `version` is this Plugboard's.
 */
export async function migrate(
  db: Kysely<LabSchema>,
  engine: Engine,
  where: string,
  version: string,
): Promise<void> {
  // Two Plugboards starting at once on a new SQLite store both migrate it (Kysely takes no migration
  // lock on SQLite): the one that loses the race fails (the file is locked, or the tables are there)
  // and tries again a little later, when it finds the store at the version it wanted.
  for (let attempt = 1; ; attempt++) {
    const error = await migrateOnce(db, engine, where, version);
    if (!error) return;
    const raced =
      engine === 'sqlite' && (isStoreBusy(error.cause) || /already exists/i.test(String(error.cause)));
    if (!raced || attempt >= 20) throw error;
    await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
  }
}

/** One attempt: the refusal of a newer store is thrown; a failed migration is returned. */
async function migrateOnce(
  db: Kysely<LabSchema>,
  engine: Engine,
  where: string,
  version: string,
): Promise<PlugboardError | null> {
  const stored = await storedVersion(db);
  if (stored.version > SCHEMA_VERSION) {
    throw new PlugboardError(
      'STORE',
      `The lab store ${where} has schema version ${stored.version}${stored.writtenBy ? ` (written by Plugboard ${stored.writtenBy})` : ''}, newer than this Plugboard ${version} knows (schema version ${SCHEMA_VERSION}). Nothing in it was changed: run a Plugboard at least as new as the one that wrote it, or point this one at another store.`,
      { storeVersion: stored.version, knownVersion: SCHEMA_VERSION },
    );
  }
  if (stored.version === SCHEMA_VERSION) return null;
  const { error, results } = await new Migrator({
    db,
    provider: provider(engine, version),
  }).migrateToLatest();
  if (!error) return null;
  const failed = results?.find((result) => result.status === 'Error')?.migrationName;
  return new PlugboardError(
    'STORE',
    `Could not bring the lab store ${where} to schema version ${SCHEMA_VERSION}${failed ? ` (migration ${failed} failed)` : ''}; it was left as it was. The details are in the log.`,
    undefined,
    { cause: error },
  );
}
