/**
 * SQLite through Node's own `node:sqlite` (built into Node 24 and into Electron's Node, so nothing native
 * is rebuilt for Electron's ABI), shaped as Kysely's SQLite dialect expects: better-sqlite3's
 * `prepare` with `all`, `run`, `iterate` and `reader`.
 *
 * Node 24.14 announces node:sqlite with an ExperimentalWarning when it is first loaded. That one warning
 * must not reach a command's output, so the module is loaded here, once, with that warning (its type and
 * its subject) held back; every other warning passes as before.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CompiledQuery, SqliteDatabase, SqliteStatement } from 'kysely';

type SqliteModule = typeof import('node:sqlite');
let loaded: SqliteModule | null = null;

/** Whether a warning is node:sqlite's experimental notice (and nothing else). */
export function isSqliteNotice(warning: string | Error, typeOrOptions: unknown): boolean {
  const type =
    warning instanceof Error
      ? warning.name
      : typeof typeOrOptions === 'string'
        ? typeOrOptions
        : (typeOrOptions as { type?: unknown } | undefined)?.type;
  const message = warning instanceof Error ? warning.message : String(warning);
  return type === 'ExperimentalWarning' && /\bSQLite\b/.test(message);
}

/** node:sqlite, loaded once without its experimental notice. */
export function sqliteModule(): SqliteModule {
  if (loaded) return loaded;
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, ...args: Parameters<typeof emit>) {
    if (isSqliteNotice(args[0], args[1])) return;
    return emit.apply(this, args);
  } as typeof emit;
  try {
    loaded = process.getBuiltinModule('node:sqlite') as SqliteModule;
  } finally {
    process.emitWarning = emit;
  }
  return loaded;
}

/** Open (creating) a database file with node:sqlite. */
export function openDatabaseSync(file: string): DatabaseSync {
  const { DatabaseSync } = sqliteModule();
  return new DatabaseSync(file);
}

/** Values node:sqlite binds: Kysely's parameters as SQLite keeps them. */
type Bindable = null | number | bigint | string | NodeJS.ArrayBufferView;

function bindable(values: ReadonlyArray<unknown>): Bindable[] {
  return values.map((value) => {
    if (value === undefined) return null;
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value as Bindable;
  });
}

/** A node:sqlite statement as better-sqlite3's: `reader` when it returns rows. */
function statement(prepared: StatementSync): SqliteStatement {
  return {
    reader: prepared.columns().length > 0,
    all: (parameters) => prepared.all(...bindable(parameters)),
    run: (parameters) => prepared.run(...bindable(parameters)),
    iterate: (parameters) => prepared.iterate(...bindable(parameters)) as IterableIterator<unknown>,
  };
}

/** A node:sqlite database as Kysely's SqliteDialect takes it. */
export function kyselySqlite(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare: (sql) => statement(db.prepare(sql)),
  };
}

/** Run one query Kysely compiled, now, on `db`: its rows (none for a statement that returns none). */
export function runCompiled<R>(db: DatabaseSync, query: CompiledQuery<R>): R[] {
  const prepared = db.prepare(query.sql);
  if (prepared.columns().length > 0) return prepared.all(...bindable(query.parameters)) as R[];
  prepared.run(...bindable(query.parameters));
  return [];
}
