/**
 * Where the lab store is: SQLite in the config folder unless a PostgreSQL connection string is given.
 * The string holds a password, so it never comes from a command-line argument (other users see those in
 * `ps`) and never reaches a log: it comes from
 *
 *   PLUGBOARD_DATABASE_URL_FILE   a file holding it (owner-only is the operator's business)
 *   PLUGBOARD_DATABASE_URL        the environment
 *   $CREDENTIALS_DIRECTORY/plugboard.database   a systemd credential (LoadCredential=, LoadCredentialEncrypted=)
 *
 * in that order; the environment's two may not both be given. A person and the log see only the host,
 * port and database (`describePostgres`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlugboardError } from '../../shared/errors';

export const DATABASE_URL_VARIABLE = 'PLUGBOARD_DATABASE_URL';
export const DATABASE_URL_FILE_VARIABLE = 'PLUGBOARD_DATABASE_URL_FILE';
export const DATABASE_CREDENTIAL = 'plugboard.database';

export type StoreLocation =
  | { engine: 'sqlite' }
  | {
      engine: 'postgres';
      /** The connection string: for `pg` alone. */
      url: string;
      /** Where it came from, for a sentence about it (a variable's or a file's name, never the string). */
      source: string;
    };

function readSecretFile(file: string, source: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PlugboardError(
      'STORE',
      `Plugboard could not read the database connection string from ${source} (${code}).`,
      undefined,
      { cause: error, action: 'Check that the file exists and that Plugboard may read it.' },
    );
  }
  return text.trim();
}

/** The lab store's place for this environment: SQLite, or PostgreSQL with its connection string. */
export function storeLocation(env: NodeJS.ProcessEnv = process.env): StoreLocation {
  const file = env[DATABASE_URL_FILE_VARIABLE];
  const direct = env[DATABASE_URL_VARIABLE];
  if (file && direct)
    throw new PlugboardError(
      'STORE',
      `Both ${DATABASE_URL_VARIABLE} and ${DATABASE_URL_FILE_VARIABLE} are set, so Plugboard does not know which database to use.`,
      undefined,
      {
        action: `Unset one of them (${DATABASE_URL_FILE_VARIABLE} keeps the password out of the environment).`,
      },
    );
  let url: string | null = null;
  let source = '';
  if (file) {
    source = `the file ${file} (${DATABASE_URL_FILE_VARIABLE})`;
    url = readSecretFile(file, source);
  } else if (direct) {
    source = DATABASE_URL_VARIABLE;
    url = direct.trim();
  } else if (env.CREDENTIALS_DIRECTORY) {
    const credential = join(env.CREDENTIALS_DIRECTORY, DATABASE_CREDENTIAL);
    try {
      url = readFileSync(credential, 'utf8').trim();
      source = `the systemd credential ${DATABASE_CREDENTIAL}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (url === null) return { engine: 'sqlite' };
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new PlugboardError(
      'STORE',
      `The database connection string in ${source} is not a PostgreSQL URL.`,
      undefined,
      {
        action:
          'Give one like postgresql://plugboard:PASSWORD@db.lab:5432/plugboard, or none for the store in the config folder.',
      },
    );
  return { engine: 'postgres', url, source };
}

/** `PostgreSQL database "plugboard" on db.lab:5432`: the string without its user or password. */
export function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    const database =
      decodeURIComponent(parsed.pathname.replace(/^\//, '')) || parsed.searchParams.get('dbname');
    const socket = parsed.searchParams.get('host');
    const host = parsed.hostname
      ? `${parsed.hostname}:${parsed.port || '5432'}`
      : socket
        ? `the socket in ${socket}`
        : 'the local socket';
    return `PostgreSQL database "${database || 'postgres'}" on ${host}`;
  } catch {
    return 'PostgreSQL (its connection string could not be read as a URL)';
  }
}
