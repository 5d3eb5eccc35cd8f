/**
 * The lab's configuration in the lab store, for a lab whose store is PostgreSQL (a lab that may run
 * standby services on other machines): the keys `controllers`, `groups` (groups, sequences, and the
 * controllers' aliases and tags with them) and `settings` (meter limits and the service's settings) are
 * rows of `lab_config` (migration 0004-lab-config), so every service on the lab sees the same lab. Every
 * other key — the keychain journal (`keychainJournal`: which keychain accounts this machine wrote) above
 * all — stays in this machine's config.json: secrets and what is known of them are never in the database.
 * With SQLite (one machine: the desktop app and one service) none of this is used: config.json keeps it
 * all, as electron-store and conf always did.
 *
 * The Core reads synchronously, so the rows are kept in memory: read when it opens, read again at the
 * start of every change and when `watch` sees another service's write. While the store cannot be
 * reached, reads answer the last copy.
 *
 * A change (`exclusive`) runs one at a time in this process, under config.json's lock (the journal is
 * read and written there), re-reads the rows first, and writes the task's `set`s together in ONE
 * transaction at the end. That transaction takes an advisory lock on PostgreSQL (a write transaction on
 * SQLite) and checks that the configuration's revision is still the one read at the start: when another
 * service wrote meanwhile, or the store cannot be reached, nothing is written and the change is refused
 * with a sentence (code STORE). What the task did outside the store (a keychain entry written) is settled
 * by the keychain journal as after any failed change.
 *
 * `watch` polls the highest revision every second (one indexed aggregate) rather than LISTEN/NOTIFY: a
 * notification needs a connection of its own, held and re-made after every outage, and is lost while it
 * is down; a poll needs neither and notices a change made during an outage as soon as it is back.
 */
import { hostname } from 'node:os';
import { PlugboardError } from '../../shared/errors';
import type { Logger } from '../../shared/logging';
import {
  highestRevision,
  readLabConfig as read,
  writeLabConfig as writeRows,
  type LabConfigCopy,
} from '../database/lab-config-rows';
import type { LabStore } from '../database/lab-store';
import type { LabConfigTable } from '../database/schema';
import type { KeyValueStore } from '../kernel/ports';
import { CONTROLLERS_KEY, GROUPS_KEY } from './registry-records';
import { SETTINGS_KEY } from './settings';

/** The keys the lab shares: in the store on PostgreSQL. */
export const LAB_CONFIG_KEYS: ReadonlySet<string> = new Set([CONTROLLERS_KEY, GROUPS_KEY, SETTINGS_KEY]);

/** How often `watch` asks whether another service wrote. */
export const LAB_CONFIG_POLL_MS = 1_000;

export interface LabConfigOptions {
  /** Who writes, for the rows' written_by (default: this machine's name and process). */
  writtenBy?: string;
  log: Logger;
  now?: () => number;
  pollMs?: number;
}

/** The lab's configuration as a KeyValueStore, with the one-time move's own write. */
export interface LabConfigStore extends KeyValueStore {
  /** Where it is, for a sentence (the store's host and database). */
  readonly where: string;
  /** Whether the store holds no configuration yet (as last read). */
  empty(): boolean;
  /**
   * Write `values` as the lab's first configuration, in one transaction, only if the store holds none:
   * true when this call wrote them, false when one was there (another service's, now read).
   */
  seed(values: Record<string, unknown>): Promise<boolean>;
}

/** Open the lab's configuration over `store`, with the other keys in `local` (config.json). */
export async function openLabConfig(
  store: LabStore,
  local: KeyValueStore,
  options: LabConfigOptions,
): Promise<LabConfigStore> {
  const writtenBy = options.writtenBy ?? `${hostname()} (pid ${process.pid})`;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? LAB_CONFIG_POLL_MS;
  const { log } = options;
  let copy: LabConfigCopy = await read(store);
  let pending: Map<string, unknown> | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | null = null;
  let polling = false;
  let unreachable = false;

  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  /** Read the rows again; announce them when another service changed them. */
  const reload = async (): Promise<void> => {
    const fresh = await read(store);
    const changed = fresh.revision !== copy.revision || fresh.keys.size !== copy.keys.size;
    copy = fresh;
    if (unreachable)
      log(`the lab store ${store.where} answers again; the lab's configuration is read from it`);
    unreachable = false;
    if (changed) notify();
  };
  const poll = async (): Promise<void> => {
    if (polling) return;
    polling = true;
    try {
      const revision = await highestRevision(store);
      if (revision !== copy.revision || unreachable) await reload();
    } catch (error) {
      if (!unreachable)
        log(
          `the lab store ${store.where} cannot be reached: the lab's configuration is answered as last read, and changes to it are refused until it is back`,
          error,
        );
      unreachable = true;
    } finally {
      polling = false;
    }
  };

  const commit = async (writes: Map<string, unknown>, expected: number): Promise<void> => {
    const written_at = now();
    const rows = (revision: number): LabConfigTable[] =>
      [...writes].map(([key, value]) => ({
        key,
        value: value === undefined ? null : JSON.stringify(value),
        revision,
        written_at,
        written_by: writtenBy,
      }));
    try {
      const revision = await writeRows(store, (current) => {
        if (current !== expected) throw conflict();
        return rows(current + 1);
      });
      for (const [key, value] of writes) {
        copy.keys.add(key);
        if (value === undefined) copy.values.delete(key);
        else copy.values.set(key, value);
      }
      copy.revision = revision ?? copy.revision;
    } catch (error) {
      await putRight();
      if (error instanceof PlugboardError) throw error;
      throw new PlugboardError(
        'STORE',
        `Plugboard could not save the lab's configuration in the lab store ${store.where}, so nothing was changed.`,
        undefined,
        {
          cause: error,
          action: 'Check that the database is running and reachable, then try again.',
        },
      );
    }
  };

  /**
   * After a change that was not written: read the rows again and tell the followers, which announced the
   * task's writes as they were made (registry-file.ts, settings.ts) and now compare them with the store.
   */
  const putRight = async (): Promise<void> => {
    await reload().catch(() => undefined);
    notify();
  };

  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const locked = async (): Promise<T> => {
      try {
        await reload();
      } catch (error) {
        throw new PlugboardError(
          'STORE',
          `Plugboard could not read the lab's configuration from the lab store ${store.where}, so nothing was changed.`,
          undefined,
          { cause: error, action: 'Check that the database is running and reachable, then try again.' },
        );
      }
      const expected = copy.revision;
      const writes = new Map<string, unknown>();
      pending = writes;
      let result: T;
      try {
        result = await task();
      } catch (error) {
        pending = null;
        if (writes.size > 0) await putRight();
        throw error;
      }
      pending = null;
      if (writes.size > 0) await commit(writes, expected);
      return result;
    };
    const run = queue.then(
      () => (local.exclusive ? local.exclusive(locked) : locked()),
      () => (local.exclusive ? local.exclusive(locked) : locked()),
    );
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    where: store.where,
    get<T>(key: string, fallback: T): T {
      if (!LAB_CONFIG_KEYS.has(key)) return local.get(key, fallback);
      const source = pending?.has(key) ? pending : copy.values;
      const value = source.get(key);
      return value === undefined ? fallback : (structuredClone(value) as T);
    },
    set(key: string, value: unknown): void {
      if (!LAB_CONFIG_KEYS.has(key)) return local.set(key, value);
      const kept = value === undefined ? undefined : structuredClone(value);
      if (pending) {
        pending.set(key, kept);
        return;
      }
      // Outside a change (nothing in the Core does this): written as a change of its own, in the order
      // given, refused like one when another service wrote meanwhile.
      exclusive(async () => pending?.set(key, kept)).catch((error: unknown) =>
        log(`could not save "${key}" in the lab's configuration`, error),
      );
    },
    exclusive,
    watch(listener) {
      listeners.add(listener);
      if (!timer) {
        timer = setInterval(() => void poll(), pollMs);
        timer.unref();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || !timer) return;
        clearInterval(timer);
        timer = null;
      };
    },
    empty: () => copy.keys.size === 0,
    seed(values) {
      const run = queue.then(async () => {
        const entries = Object.entries(values).filter(([, value]) => value !== undefined);
        const written_at = now();
        const wrote = await writeRows(store, (current, rows) =>
          rows > 0
            ? null
            : entries.map(([key, value]) => ({
                key,
                value: JSON.stringify(value),
                revision: current + 1,
                written_at,
                written_by: writtenBy,
              })),
        );
        await reload();
        return wrote !== null;
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

function conflict(): PlugboardError {
  return new PlugboardError(
    'STORE',
    "Another Plugboard service changed the lab's configuration while this change was being made, so nothing was changed.",
    { configConflict: true },
    { action: 'Try again: the change is made on the configuration as it is now.' },
  );
}
