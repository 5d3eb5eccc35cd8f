/**
 * Which Core a Plugboard uses for a config folder, so that one Core runs per folder. The process that
 * holds the Core lock (core-lock.ts) runs the Core and serves its socket (core.sock); every other
 * Plugboard on the folder goes through that socket:
 * - `attachOrLock` (the desktop app, the web shell): the running Core's socket, else the lock and a Core
 *   of its own;
 * - `attachOrNone` (the CLI): the running Core's socket, else nothing (the command runs its own
 *   short-lived Core), never a Core beside a holder whose socket does not answer.
 * A holder that is starting has the lock before its socket listens: both wait for its socket, up to
 * `waitMs`, then refuse with a sentence naming the holder.
 */
import { watch } from 'node:fs';
import path from 'node:path';
import { PlugboardError } from '../shared/errors';
import { findRunningCore, type CoreLink } from './client';
import { CORE_LOCK_FILE, CoreLockHeld, lockHolderNow, takeCoreLock, type CoreLock } from './core-lock';
import { describeHolder, type LockHolder } from './lock-holder';
import { coreSocketPath } from './wire';

export type CoreSlot = { link: CoreLink; lock: null } | { link: null; lock: CoreLock };

export interface SlotOptions {
  /** How long to wait for a starting holder's socket (default 30 s). */
  waitMs?: number;
}

const DEFAULT_WAIT_MS = 30_000;

/** The running Core's link, or the Core lock (this process then runs the Core and serves its socket). */
export async function attachOrLock(
  configDir: string,
  shell: string,
  onLost: (error: Error) => void,
  options: SlotOptions = {},
): Promise<CoreSlot> {
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const link = await findRunningCore(configDir);
    if (link) return { link, lock: null };
    try {
      return { link: null, lock: await takeCoreLock(configDir, onLost, { shell }) };
    } catch (error) {
      if (!(error instanceof CoreLockHeld) || Date.now() >= deadline) throw noAnswer(configDir, error);
      await folderChanged(configDir, deadline - Date.now());
    }
  }
}

/** The running Core's link, or null when no Core holds the folder (the caller may run its own). */
export async function attachOrNone(configDir: string, options: SlotOptions = {}): Promise<CoreLink | null> {
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const link = await findRunningCore(configDir);
    if (link) return link;
    const holder = await lockHolderNow(configDir);
    if (holder === null) return null;
    if (Date.now() >= deadline) throw noAnswer(configDir, new CoreLockHeld(configDir, holder.holder));
    await folderChanged(configDir, deadline - Date.now());
  }
}

/** A holder whose socket never answered: say who, and what to do. */
function noAnswer(configDir: string, error: unknown): unknown {
  if (!(error instanceof CoreLockHeld)) return error;
  const holder: LockHolder | null = error.holder;
  return new PlugboardError(
    'UNREACHABLE',
    `${holder ? describeHolder(holder) : 'Another Plugboard'} runs the Core for ${configDir}, but its socket ${coreSocketPath(configDir)} does not answer; a second Core beside it is not allowed.`,
    undefined,
    {
      cause: error,
      action: `Wait until it has started, or stop it (systemctl stop plugboard, quit the app, or stop npm run web), then try again. If no Plugboard runs, remove ${path.join(configDir, CORE_LOCK_FILE)}.`,
    },
  );
}

/**
 * Resolves at the next change in the config folder (a socket appears, the lock goes), or after at most
 * half a second (a change just before the watch began is seen at the next look).
 */
function folderChanged(configDir: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(finish, Math.min(Math.max(0, ms), 500));
    let watcher: ReturnType<typeof watch> | null = null;
    try {
      watcher = watch(configDir, { persistent: false }, finish);
      watcher.on('error', finish);
    } catch {
      // No watching here: the timer alone decides.
    }
  });
}
