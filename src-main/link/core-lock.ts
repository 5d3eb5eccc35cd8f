/**
 * One Core per config folder: the long-running process that runs it (`plugboard serve`, the desktop app,
 * the web shell) holds `<configDir>/core.lock`, a folder holding one record of its holder (lock-holder.ts:
 * PID, process start time, boot id, host). A lock whose holder is gone is taken over at once, not after a
 * timeout, so a service restarted after a crash starts at the first attempt; a holder that still runs,
 * even stopped (SIGSTOP) or too busy to answer, keeps it.
 *
 * Race-free by construction, with no lock library (proper-lockfile judges only by a refreshed mtime, so
 * a dead holder blocks for its whole stale period and a frozen one loses its lock):
 * - a starter prepares `core.lock.<id>/<id>.holder` and renames the folder to `core.lock`: a rename onto
 *   a folder that holds a record fails, so one starter wins;
 * - to take over a holder that is gone, a starter unlinks that holder's own record (its name is unique),
 *   which succeeds for one starter only; that one removes the empty folder and renames its own in. The
 *   others find the winner's record, see it alive, and are refused;
 * - an empty `core.lock` (a takeover or a release under way, or the lock of a Plugboard from before
 *   holder records) holds no one: a rename replaces an empty folder where the system allows it (Linux,
 *   macOS); elsewhere it is waited for briefly and removed once older than STALE_MS.
 * The holder touches its record every HEARTBEAT_MS (the heartbeat that judges a holder on another host)
 * and learns at that heartbeat when its record is gone ("lock compromised"): it must stop.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { prepareConfigFolder, WRITE_NO_LINK } from '../shared/config-folder';
import { PlugboardError } from '../shared/errors';
import { describeHolder, liveness, lockHolderSchema, thisHolder, type LockHolder } from './lock-holder';

export const CORE_LOCK_FILE = 'core.lock';
/** How often the holder touches its record. */
export const HEARTBEAT_MS = 2_000;
/** A record (or an empty lock folder) not touched for this long has no live holder. */
export const STALE_MS = 10_000;
const RECORD = '.holder';
/** Rounds of "someone else moved first" before giving up: each needs another process to act. */
const MAX_ROUNDS = 100;

export interface CoreLock {
  /** Whether this process still holds it (false once released, or once its record was found gone). */
  readonly held: boolean;
  release(): Promise<void>;
}

export interface CoreLockOptions {
  /** Which Plugboard takes it (recorded): `serve`, `electron`, `web`. */
  shell?: string;
  /** The clock (epoch ms). */
  now?: () => number;
}

/** The lock is held by a process that runs: `holder` says which. */
export class CoreLockHeld extends PlugboardError {
  readonly holder: LockHolder | null;
  constructor(configDir: string, holder: LockHolder | null) {
    const lockfilePath = path.join(configDir, CORE_LOCK_FILE);
    super(
      'BAD_INPUT',
      `Another Plugboard already runs the Core for ${configDir}: ${holder ? describeHolder(holder) : 'a Plugboard that is starting or stopping'} holds ${lockfilePath}.`,
      undefined,
      {
        action:
          'Stop it first (quit the app, stop npm run web, or systemctl stop plugboard), or give this one another config folder (--config-dir or PLUGBOARD_CONFIG_DIR).',
      },
    );
    this.holder = holder;
  }
}

export async function takeCoreLock(
  configDir: string,
  onLost: (error: Error) => void,
  options: CoreLockOptions = {},
): Promise<CoreLock> {
  const now = options.now ?? Date.now;
  prepareConfigFolder(configDir);
  const lockDir = path.join(configDir, CORE_LOCK_FILE);
  const id = randomBytes(8).toString('hex');
  const prepared = `${lockDir}.${id}`;
  const mine = path.join(lockDir, `${id}${RECORD}`);
  try {
    await mkdir(prepared, { mode: 0o700 });
    const record = thisHolder(options.shell ?? 'serve', now());
    await writeFile(path.join(prepared, `${id}${RECORD}`), JSON.stringify(record), {
      flag: WRITE_NO_LINK,
      mode: 0o600,
    });
    await acquire(configDir, lockDir, prepared, now);
  } catch (error) {
    await rm(prepared, { recursive: true, force: true }).catch(() => undefined);
    if (error instanceof PlugboardError) throw error;
    throw new PlugboardError(
      'INTERNAL',
      `Plugboard could not take ${lockDir} (${(error as Error).message}).`,
      undefined,
      { cause: error, action: 'Check that the config folder is writable by the user Plugboard runs as.' },
    );
  }
  void sweepPrepared(configDir, now);

  let released = false;
  const heartbeat = setInterval(() => {
    const at = new Date(now());
    utimes(mine, at, at).catch((error: NodeJS.ErrnoException) => {
      if (released || error.code !== 'ENOENT') return;
      released = true;
      clearInterval(heartbeat);
      onLost(new Error(`${lockDir} no longer holds this process's record: another Plugboard took it over.`));
    });
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    get held() {
      return !released;
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      try {
        await rm(mine);
      } catch {
        return; // not ours any more: the folder is someone else's now
      }
      await rmdir(lockDir).catch(() => undefined);
    },
  };
}

async function acquire(
  configDir: string,
  lockDir: string,
  prepared: string,
  now: () => number,
): Promise<void> {
  let emptySeen = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    try {
      await rename(prepared, lockDir);
      return;
    } catch (error) {
      if (!isTaken(error)) throw error;
    }
    const found = await inspect(lockDir);
    if (found.kind === 'missing') continue;
    if (found.kind === 'empty') {
      if (now() - found.mtimeMs < STALE_MS && ++emptySeen < 20) {
        await pause(50);
        continue;
      }
      if (now() - found.mtimeMs < STALE_MS) throw new CoreLockHeld(configDir, null);
      await rmdir(lockDir).catch(() => undefined);
      continue;
    }
    const state = found.holder ? liveness(found.holder) : 'unknown';
    const stale = now() - found.mtimeMs >= STALE_MS;
    if (state === 'alive' || (state === 'unknown' && !stale)) throw new CoreLockHeld(configDir, found.holder);
    // Gone: unlinking its record is the right to take over, and only one starter gets it.
    try {
      await rm(found.record);
    } catch {
      continue;
    }
    await rmdir(lockDir).catch(() => undefined);
  }
  throw new PlugboardError(
    'INTERNAL',
    `Plugboard could not take ${lockDir}: other Plugboards kept changing it.`,
    undefined,
    { action: 'Start one Plugboard at a time for this config folder.' },
  );
}

/**
 * Who holds the lock now, when a process that runs (or one that cannot be judged from here and whose
 * heartbeat is fresh) holds it; null when it is free or its holder is gone. `holder` is null for a
 * lock being taken over or released at this moment.
 */
export async function lockHolderNow(
  configDir: string,
  now: () => number = Date.now,
): Promise<{ holder: LockHolder | null } | null> {
  const found = await inspect(path.join(configDir, CORE_LOCK_FILE));
  if (found.kind === 'missing') return null;
  const fresh = now() - found.mtimeMs < STALE_MS;
  if (found.kind === 'empty') return fresh ? { holder: null } : null;
  const state = found.holder ? liveness(found.holder) : 'unknown';
  return state === 'alive' || (state === 'unknown' && fresh) ? { holder: found.holder } : null;
}

type Inspection =
  | { kind: 'missing' }
  | { kind: 'empty'; mtimeMs: number }
  | { kind: 'held'; record: string; holder: LockHolder | null; mtimeMs: number };

async function inspect(lockDir: string): Promise<Inspection> {
  try {
    const names = (await readdir(lockDir)).filter((n) => n.endsWith(RECORD));
    if (names.length === 0) return { kind: 'empty', mtimeMs: (await stat(lockDir)).mtimeMs };
    const record = path.join(lockDir, names[0]!);
    const [text, stats] = await Promise.all([readFile(record, 'utf8'), stat(record)]);
    let holder: LockHolder | null = null;
    try {
      const parsed = v.safeParse(lockHolderSchema, JSON.parse(text));
      if (parsed.success) holder = parsed.output;
    } catch {
      holder = null;
    }
    return { kind: 'held', record, holder, mtimeMs: stats.mtimeMs };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw error;
  }
}

/** The folder is there and holds something (the error differs by platform). */
function isTaken(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM' || code === 'EACCES' || code === 'EISDIR'
  );
}

/** Folders prepared by starters that died before renaming them into place. */
async function sweepPrepared(configDir: string, now: () => number): Promise<void> {
  try {
    for (const name of await readdir(configDir)) {
      if (!/^core\.lock\.[0-9a-f]{16}$/.test(name)) continue;
      const folder = path.join(configDir, name);
      const found = await inspect(folder);
      const gone =
        found.kind === 'empty'
          ? now() - found.mtimeMs >= STALE_MS
          : found.kind === 'held' && found.holder !== null && liveness(found.holder) === 'gone';
      if (gone) await rm(folder, { recursive: true, force: true });
    }
  } catch {
    // Tidying only: a leftover folder is harmless.
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
