import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { lock, type LockOptions } from 'proper-lockfile';
import { PlugboardError } from '../../shared/errors';

/**
 * The inter-process lock around every read-modify-write of the shared settings file. The app, the web
 * shell and the CLI each take it (a `config.json.lock` folder next to the file, via proper-lockfile)
 * before re-reading the file, and hold it until their change is written.
 *
 * Stale-lock policy: a holder refreshes the lock's mtime every 2 s; a lock not refreshed for 10 s belongs
 * to a process that died (or froze) and is taken over. A waiter retries with back-off for about 30 s —
 * three times the stale limit, so a crashed holder never blocks anyone — and then gives up with an
 * error that says who may be holding it.
 */
export const LOCK_POLICY = {
  // The lock folder is the owner's alone, like everything Plugboard makes in its config folder.
  fs: {
    ...fs,
    mkdir: (dir: string, done: (error: Error | null) => void) => fs.mkdir(dir, { mode: 0o700 }, done),
  },
  stale: 10_000,
  update: 2_000,
  retries: { retries: 40, factor: 1.5, minTimeout: 20, maxTimeout: 1_000, randomize: true },
  realpath: false,
} as const satisfies LockOptions;

/** What a locked section may ask: whether the lock was lost (then nothing may be written). */
export interface LockState {
  compromised: Error | null;
}

/**
 * Run tasks one at a time in this process and, each, under the file's inter-process lock. `current`
 * tells a writer whether it holds a lock that is still valid.
 */
export class ConfigFileLock {
  readonly #file: string;
  #queue: Promise<unknown> = Promise.resolve();
  #held: LockState | null = null;

  constructor(file: string) {
    this.#file = file;
  }

  /** The lock this process holds right now, or null outside a locked section. */
  get current(): LockState | null {
    return this.#held;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(() => this.#locked(task));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #locked<T>(task: () => Promise<T>): Promise<T> {
    const state: LockState = { compromised: null };
    let release: () => Promise<void>;
    try {
      await mkdir(path.dirname(this.#file), { recursive: true, mode: 0o700 });
      release = await lock(this.#file, {
        ...LOCK_POLICY,
        onCompromised: (error) => {
          state.compromised = error;
        },
      });
    } catch (error) {
      throw lockError(this.#file, error);
    }
    this.#held = state;
    try {
      return await task();
    } finally {
      this.#held = null;
      // A compromised lock is no longer ours to release.
      await release().catch(() => undefined);
    }
  }
}

function lockError(file: string, error: unknown): PlugboardError {
  const code = (error as { code?: unknown } | null)?.code;
  const message =
    code === 'ELOCKED'
      ? `Another Plugboard (the app, the web shell or the command line) kept the settings file locked for too long. Try again; if it persists, close the other Plugboard, or delete ${file}.lock if no Plugboard is running.`
      : `Plugboard could not lock its settings file ${file} (${error instanceof Error ? error.message : String(error)}). Check that the folder exists and is writable.`;
  return new PlugboardError('INTERNAL', message, undefined, { cause: error });
}
