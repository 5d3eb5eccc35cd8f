import Conf from 'conf';
import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { isDiskFull, PlugboardError } from '../../shared/errors';
import { ConfigFileLock } from './config-lock';
import type { KeyValueStore } from '../kernel/ports';

/** What both `conf` and electron-store (a `conf` subclass) offer. */
export interface ConfLike {
  /** The file's full path. */
  readonly path: string;
  get(key: string, fallback: unknown): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** `config.json` is the owner's alone, whoever writes it (conf and electron-store default to 0666 less the umask). */
export const CONFIG_FILE_MODE = 0o600;

/** How long the file must stay quiet before watchers hear of a change (one write is several events). */
const WATCH_DEBOUNCE_MS = 50;

/**
 * The Core's KeyValueStore over `conf` or electron-store. Keys are taken literally (dot notation is
 * off in both openers) so the desktop app and the web shell read and write one `config.json` alike.
 *
 * `conf` reads the whole file on every `get` and rewrites it atomically on every `set`, so a read always
 * sees the last complete write. What it cannot do is keep two processes from interleaving a
 * read-modify-write: `exclusive` runs one under {@link ConfigFileLock}, and `watch` tells a running app
 * that another process wrote.
 */
export function confKeyValueStore(conf: ConfLike): KeyValueStore {
  const lock = new ConfigFileLock(conf.path);
  const folder = path.dirname(conf.path);
  const fileName = path.basename(conf.path);
  const listeners = new Set<() => void>();
  let watcher: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;

  const notify = () => {
    timer = null;
    for (const listener of [...listeners]) listener();
  };
  const stopWatching = () => {
    watcher?.close();
    watcher = null;
    if (timer) clearTimeout(timer);
    timer = null;
  };

  return {
    get: <T>(key: string, fallback: T) => conf.get(key, fallback) as T,
    set: (key, value) => {
      if (lock.current?.compromised) {
        throw new PlugboardError(
          'INTERNAL',
          'Plugboard lost its lock on the settings file (the machine was too busy to keep it) and saved nothing. Try again.',
          undefined,
          { cause: lock.current.compromised },
        );
      }
      try {
        // conf refuses `undefined`; storing "nothing" means forgetting the key.
        if (value === undefined) conf.delete(key);
        else conf.set(key, value);
      } catch (error) {
        if (!isDiskFull(error)) throw error;
        // conf writes a new file beside the old one and renames it over: the old one is whole.
        throw new PlugboardError(
          'INTERNAL',
          `Plugboard could not save its settings: the disk holding ${folder} is full, so nothing was changed.`,
          { diskFull: true },
          { cause: error, action: 'Free some space on that disk, then try again.' },
        );
      }
    },
    exclusive: (task) => lock.run(task),
    watch(listener) {
      listeners.add(listener);
      if (!watcher) {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        // The folder, not the file: conf replaces the file by renaming a new one over it.
        watcher = watch(folder, { persistent: false }, (_event, name) => {
          if (name !== null && name !== fileName) return;
          if (timer) clearTimeout(timer);
          timer = setTimeout(notify, WATCH_DEBOUNCE_MS);
        });
        watcher.on('error', stopWatching);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stopWatching();
      };
    },
  };
}

/** `config.json` in `dir` — the same file the desktop app uses when `dir` is its userData folder. */
export function openConfStore(dir: string): KeyValueStore {
  return confKeyValueStore(
    new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      accessPropertiesByDotNotation: false,
      configFileMode: CONFIG_FILE_MODE,
    }) as ConfLike,
  );
}
