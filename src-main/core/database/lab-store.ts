/**
 * The lab store: the records a lab keeps (the activity log first), in one schema over two engines
 * through Kysely. SQLite in the config folder by default (owner-only, write-ahead log), the same for the
 * desktop app and the service; PostgreSQL when a connection string is given (connection.ts), for labs
 * that run more than one machine. Opening it runs the migrations (migrations.ts): a store a newer
 * Plugboard wrote is refused untouched.
 */
import { closeSync, chmodSync, constants, openSync } from 'node:fs';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type Compilable } from 'kysely';
import { PlugboardError } from '../../shared/errors';
import { describePostgres, storeLocation } from './connection';
import { assertNotElsewhere, rememberPostgres } from './store-place';
import { migrate, type Engine } from './migrations';
import { kyselySqlite, openDatabaseSync, runCompiled } from './node-sqlite';
import { isStoreBusy } from './store-errors';
import type { LabSchema } from './schema';

/** The SQLite store's file in the config folder (beside it, SQLite's -wal and -shm). */
export const LAB_STORE_FILE = 'lab-store.sqlite';

export interface LabStore {
  readonly db: Kysely<LabSchema>;
  readonly engine: Engine;
  /** The store for a person and the log: its file, or PostgreSQL's host and database, never a password. */
  readonly where: string;
  /**
   * SQLite only (null on PostgreSQL): run `work` at once in one write transaction (BEGIN IMMEDIATE),
   * its queries built by Kysely and run synchronously, so a check and the write it allows are one step
   * no other connection to the file, in this process or another, can come between.
   */
  readonly immediate: (<T>(work: (run: RunNow) => T) => Promise<T>) | null;
  /**
   * SQLite only (null on PostgreSQL): reads at once, and the file's data version, which changes when
   * another connection (another Core, another process) commits, so a view kept in memory knows when to
   * read again without waiting.
   */
  readonly readNow: { run: RunNow; dataVersion(): number } | null;
  close(): Promise<void>;
}

/** Runs a query Kysely built, now, and gives its rows. */
export type RunNow = <R>(query: Compilable<R>) => R[];

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
    // Another process opening or migrating the same file at the same moment is waited for.
    raw.exec('PRAGMA busy_timeout = 5000');
    // Changing the journal mode of a new file needs it alone, and SQLite does not wait for that: a
    // second process creating it at the same moment tries again a little later.
    for (let attempt = 1; ; attempt++) {
      try {
        raw.exec('PRAGMA journal_mode = WAL');
        break;
      } catch (error) {
        if (!isStoreBusy(error) || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      }
    }
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
  // Inside Kysely's connection (its mutex), so none of its own transactions is open on the file.
  const immediate = <T>(work: (run: RunNow) => T): Promise<T> =>
    db.connection().execute(async () => {
      raw.exec('BEGIN IMMEDIATE');
      let result: T;
      try {
        result = work((query) => runCompiled(raw, query.compile()));
      } catch (error) {
        try {
          raw.exec('ROLLBACK');
        } catch {
          // SQLite may have ended it itself (a full disk): the work's error is the one to tell.
        }
        throw error;
      }
      raw.exec('COMMIT');
      return result;
    });
  const dataVersion = raw.prepare('PRAGMA data_version');
  const readNow = {
    run: ((query) => runCompiled(raw, query.compile())) as RunNow,
    dataVersion: () => Number((dataVersion.get() as { data_version: number }).data_version),
  };
  return opened(db, 'sqlite', file, version, immediate, readNow);
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
  // pg's end() resolves once the server has the goodbye, while each socket still closes a turn later:
  // closing the store waits for that, so nothing of it is left open when close() resolves.
  const sockets = new Set<Socket>();
  pool.on('connect', (client) => {
    // A connection that dies while a query runs on it (the database stopped or restarted) fails that
    // query, and pg also emits 'error' on the client, which the pool listens to only while it is idle:
    // without a listener here the process would crash on it.
    client.on('error', () => undefined);
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const socketsClosed = async () => {
    await Promise.all(
      [...sockets].map((socket) => {
        const closing = once(socket, 'close');
        socket.destroy();
        return closing;
      }),
    );
  };
  const db = new Kysely<LabSchema>({ dialect: new PostgresDialect({ pool }) });
  return opened(db, 'postgres', where, version, null, null, socketsClosed);
}

async function opened(
  db: Kysely<LabSchema>,
  engine: Engine,
  where: string,
  version: string,
  immediate: LabStore['immediate'],
  readNow: LabStore['readNow'],
  afterDestroy: () => Promise<void> = async () => undefined,
): Promise<LabStore> {
  try {
    await migrate(db, engine, where, version);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    await afterDestroy();
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
    immediate,
    readNow,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      await afterDestroy();
    },
  };
}

/**
 * The lab store for the config folder `dir` and this environment: PostgreSQL when given, else SQLite.
 * A folder remembers that its lab went to PostgreSQL (place.ts), so a command run there without the
 * database's setting is refused instead of quietly keeping a second lab in SQLite and config.json.
 */
export async function openLabStore(
  dir: string,
  version: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LabStore> {
  const location = storeLocation(env);
  if (location.engine === 'sqlite') {
    assertNotElsewhere(dir);
    return openSqliteStore(join(dir, LAB_STORE_FILE), version);
  }
  const store = await openPostgresStore(location.url, version);
  rememberPostgres(dir, store.where);
  return store;
}
