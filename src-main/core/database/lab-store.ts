/**
 * The lab store: the records a lab keeps (the activity log first), in one schema over two engines
 * through Kysely. SQLite in the config folder by default (owner-only, write-ahead log), the same for the
 * desktop app and the service; PostgreSQL when a connection string is given (connection.ts), for labs
 * that run more than one machine. Opening it runs the migrations (migrations.ts): a store a newer
 * Plugboard wrote is refused untouched.
 */
import { closeSync, chmodSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { PlugboardError } from '../../shared/errors';
import { describePostgres, storeLocation } from './connection';
import { migrate, type Engine } from './migrations';
import { kyselySqlite, openDatabaseSync } from './node-sqlite';
import type { LabSchema } from './schema';

/** The SQLite store's file in the config folder (beside it, SQLite's -wal and -shm). */
export const LAB_STORE_FILE = 'lab-store.sqlite';

export interface LabStore {
  readonly db: Kysely<LabSchema>;
  readonly engine: Engine;
  /** The store for a person and the log: its file, or PostgreSQL's host and database, never a password. */
  readonly where: string;
  close(): Promise<void>;
}

export interface SqliteOptions {
  /** The largest the file may grow, in pages of 4 KiB (tests: a full disk without filling one). */
  maxPages?: number;
}

/** Open (creating) the SQLite store `file`, migrated. */
export async function openSqliteStore(
  file: string,
  version: string,
  options: SqliteOptions = {},
): Promise<LabStore> {
  // Created owner-only before SQLite opens it; SQLite gives its -wal and -shm the file's mode.
  closeSync(openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600));
  chmodSync(file, 0o600);
  const raw = openDatabaseSync(file);
  try {
    // First, so that what follows waits for another Plugboard opening the same file instead of failing
    // at once: switching a fresh file to WAL takes a moment's exclusive lock.
    raw.exec('PRAGMA busy_timeout = 5000');
    raw.exec('PRAGMA journal_mode = WAL');
    // In WAL mode a committed transaction survives a crash of the process; only the machine's may lose one.
    raw.exec('PRAGMA synchronous = NORMAL');
    if (options.maxPages !== undefined) raw.exec(`PRAGMA max_page_count = ${Math.floor(options.maxPages)}`);
  } catch (error) {
    raw.close();
    throw new PlugboardError('STORE', `Plugboard could not open its lab store ${file}.`, undefined, {
      cause: error,
      action: 'Check the file (sqlite3 can read it) and the disk it is on.',
    });
  }
  // Kysely runs one query or transaction at a time on SQLite's one connection (its connection mutex).
  const db = new Kysely<LabSchema>({ dialect: new SqliteDialect({ database: kyselySqlite(raw) }) });
  return opened(db, 'sqlite', file, version);
}

/** Open the PostgreSQL store at `url`, migrated. */
export async function openPostgresStore(url: string, version: string): Promise<LabStore> {
  const pg = await import('pg');
  const { Pool, types } = pg.default ?? pg;
  const where = describePostgres(url);
  const pool = new Pool({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 10_000,
    application_name: 'plugboard',
    // bigint (ids, epoch ms) as numbers: both are below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === types.builtins.INT8
          ? Number
          : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
    },
  });
  // An idle connection the server dropped: the pool replaces it; without a listener it would crash us.
  pool.on('error', () => undefined);
  const db = new Kysely<LabSchema>({ dialect: new PostgresDialect({ pool }) });
  return opened(db, 'postgres', where, version);
}

async function opened(
  db: Kysely<LabSchema>,
  engine: Engine,
  where: string,
  version: string,
): Promise<LabStore> {
  try {
    await migrate(db, engine, where, version);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    if (error instanceof PlugboardError) throw error;
    throw new PlugboardError('STORE', `Plugboard could not use its lab store, ${where}.`, undefined, {
      cause: error,
      action: 'Check that the database is running and reachable, then start Plugboard again.',
    });
  }
  let closed = false;
  return {
    db,
    engine,
    where,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/** The lab store for the config folder `dir` and this environment: PostgreSQL when given, else SQLite. */
export function openLabStore(
  dir: string,
  version: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LabStore> {
  const location = storeLocation(env);
  return location.engine === 'postgres'
    ? openPostgresStore(location.url, version)
    : openSqliteStore(join(dir, LAB_STORE_FILE), version);
}
