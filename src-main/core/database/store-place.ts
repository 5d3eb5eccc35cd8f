/**
 * Where a config folder's lab is kept, remembered in the folder: once a Plugboard opened the folder's lab
 * in PostgreSQL, `lab-store-place.json` says so (the server and database, never the connection string).
 * A Plugboard that then opens the folder without the database's setting (a command run by hand, without
 * the service's environment) is refused with a sentence, instead of quietly starting a second lab in
 * SQLite and config.json that the service never sees. Going back to SQLite on purpose is deleting the file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlugboardError } from '../../shared/errors';
import { DATABASE_CREDENTIAL, DATABASE_URL_FILE_VARIABLE, DATABASE_URL_VARIABLE } from './connection';

export const STORE_PLACE_FILE = 'lab-store-place.json';

interface StorePlace {
  engine: 'postgres';
  /** The server and database, as the store describes itself (no user, no password). */
  where: string;
}

function read(dir: string): StorePlace | null {
  const file = join(dir, STORE_PLACE_FILE);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StorePlace>;
    return parsed.engine === 'postgres' && typeof parsed.where === 'string'
      ? { engine: 'postgres', where: parsed.where }
      : null;
  } catch {
    // Unreadable or not ours: say nothing rather than refuse on a file that names no store.
    return null;
  }
}

/** Refuse to open `dir`'s lab in SQLite when the folder's lab is in PostgreSQL. */
export function assertNotElsewhere(dir: string): void {
  const place = read(dir);
  if (!place) return;
  throw new PlugboardError(
    'STORE',
    `This config folder's lab is kept in PostgreSQL (${place.where}), but Plugboard was given no database here (${DATABASE_URL_VARIABLE}, ${DATABASE_URL_FILE_VARIABLE} or the systemd credential ${DATABASE_CREDENTIAL}); it did not open a separate lab in SQLite.`,
    undefined,
    {
      action: `Give it the same database setting as the service (for example ${DATABASE_URL_FILE_VARIABLE}=…), or use the running service (plugboard --service URL …). To go back to SQLite on purpose, delete ${join(dir, STORE_PLACE_FILE)}.`,
    },
  );
}

/** Remember that `dir`'s lab is in PostgreSQL at `where` (written only when it changes). */
export function rememberPostgres(dir: string, where: string): void {
  const known = read(dir);
  if (known?.where === where) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, STORE_PLACE_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ engine: 'postgres', where } satisfies StorePlace)}\n`, {
    mode: 0o600,
  });
  renameSync(temporary, file);
}
