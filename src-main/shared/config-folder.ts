/**
 * The config folder as Plugboard needs it before it writes there, whoever opens it (the app, the web
 * shell, the CLI, `plugboard serve`): created owner-only (0700), owned by the user Plugboard runs as,
 * writable by no one else, and with no symbolic link where Plugboard writes. Anyone else who could write
 * the folder could plant a link that makes Plugboard write into a file of their choosing (a planted
 * `activity.jsonl` once made it append to another user's file), so such a folder is refused with what to
 * do. What an older Plugboard left readable by others (a folder made 0755 by the CLI, `config.json` 0644)
 * is made owner-only. The folder itself may be reached through a link; the checks apply to where it leads.
 */
import {
  chmodSync,
  constants as fsConstants,
  lstatSync,
  mkdirSync,
  readdirSync,
  statSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { PlugboardError } from './errors';

/**
 * What Plugboard writes in its config folder, by name. An entry is Plugboard's when its name is one of
 * these or begins with one and a dot (`config.json.lock`, `activity.jsonl.123.tmp`, `core.lock.<id>`);
 * other entries (Chromium's profile shares the desktop app's folder) are left alone.
 */
export const WRITTEN_NAMES = [
  'config.json',
  'core.lock',
  'core.sock',
  'activity.jsonl',
  'lab-store.sqlite',
  'lab-store.sqlite-wal',
  'lab-store.sqlite-shm',
  'lab-store.sqlite-journal',
  'inventory.json',
  'sequence-runs',
  'serve-tls',
] as const;

/** Folders whose entries Plugboard writes (one level: their entries are files). */
const WRITTEN_FOLDERS = new Set(['config.json.lock', 'core.lock', 'sequence-runs', 'serve-tls']);

/** Whether `name`, in the config folder, is something Plugboard writes. */
export function isWrittenName(name: string): boolean {
  return WRITTEN_NAMES.some((written) => name === written || name.startsWith(`${written}.`));
}

/**
 * Create `dir` owner-only if it is missing, then check it and what Plugboard writes in it. Throws a
 * PlugboardError (BAD_INPUT) saying what to do when the folder is another user's, others can write to
 * it, or one of Plugboard's names in it is a symbolic link or another user's.
 */
export function prepareConfigFolder(dir: string, platform: NodeJS.Platform = process.platform): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new PlugboardError(
      'INTERNAL',
      `Plugboard could not create its config folder ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      undefined,
      { cause: error, action: 'Check that its parent folder exists and that you may write there.' },
    );
  }
  const folder = statSync(dir);
  if (!folder.isDirectory())
    throw refusal(`${dir} is not a folder.`, 'Give Plugboard a folder with PLUGBOARD_CONFIG_DIR.');
  const posix = platform !== 'win32' && typeof process.geteuid === 'function';
  const uid = posix ? process.geteuid!() : -1;
  if (posix) {
    if (folder.uid !== uid)
      throw refusal(
        `The config folder ${dir} belongs to another user (uid ${folder.uid}), and Plugboard runs as uid ${uid}.`,
        `Run Plugboard as the folder's owner (sudo -u OWNER …), or chown ${uid} ${dir} if it should be yours.`,
      );
    if (folder.mode & 0o022)
      throw refusal(
        `Others can write to the config folder ${dir} (mode ${octal(folder.mode)}): they could plant links that make Plugboard write to their choice of file.`,
        `Make it yours alone with chmod 700 ${dir}, and check that nothing in it is a link you did not make.`,
      );
    if (folder.mode & 0o077) chmodSync(dir, 0o700);
  }
  for (const name of readdirSync(dir).filter(isWrittenName)) {
    const entry = checkEntry(path.join(dir, name), posix, uid);
    if (entry?.isDirectory() && WRITTEN_FOLDERS.has(name)) {
      for (const inner of readdirSync(path.join(dir, name)))
        checkEntry(path.join(dir, name, inner), posix, uid);
    }
  }
}

/** Refuse a link or another user's entry; make one of ours owner-only. Null: it went away meanwhile. */
function checkEntry(file: string, posix: boolean, uid: number): Stats | null {
  let stats: Stats;
  try {
    stats = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (stats.isSymbolicLink())
    throw refusal(
      `${file} is a symbolic link. Plugboard writes there and never follows a link in its config folder: it could make Plugboard write into another file.`,
      `Remove the link (rm ${file}); if you did not make it, someone else could write to this folder: check who.`,
    );
  if (!posix) return stats;
  if (stats.uid !== uid)
    throw refusal(
      `${file} belongs to another user (uid ${stats.uid}); Plugboard runs as uid ${uid} and writes there.`,
      `Give it back with chown ${uid} ${file} (it was probably made by running Plugboard as another user), or remove it.`,
    );
  if (stats.mode & 0o077 && !stats.isSocket()) chmodSync(file, stats.isDirectory() ? 0o700 : 0o600);
  return stats;
}

function refusal(message: string, action: string): PlugboardError {
  return new PlugboardError('BAD_INPUT', message, undefined, { action });
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

const { O_WRONLY, O_CREAT, O_TRUNC, O_APPEND, O_NOFOLLOW } = fsConstants;
/**
 * Open flags for a file Plugboard writes in its config folder: never through a symbolic link (the open
 * fails with ELOOP instead; Windows has no such flag and relies on the folder check above).
 */
export const WRITE_NO_LINK = O_WRONLY | O_CREAT | O_TRUNC | (O_NOFOLLOW ?? 0);
/** The same for appending (the activity log). */
export const APPEND_NO_LINK = O_WRONLY | O_CREAT | O_APPEND | (O_NOFOLLOW ?? 0);
