import Conf from 'conf';
import type { KeyValueStore } from './ports';

/** What both `conf` and electron-store (a `conf` subclass) offer. */
export interface ConfLike {
  get(key: string, fallback: unknown): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/**
 * The Core's KeyValueStore over `conf` or electron-store. Keys are taken literally (dot notation is
 * off in both openers) so the desktop app and the web shell read and write one `config.json` alike.
 */
export function confKeyValueStore(conf: ConfLike): KeyValueStore {
  return {
    get: <T>(key: string, fallback: T) => conf.get(key, fallback) as T,
    // conf refuses `undefined`; storing "nothing" means forgetting the key.
    set: (key, value) => (value === undefined ? conf.delete(key) : conf.set(key, value)),
  };
}

/** `config.json` in `dir` — the same file the desktop app uses when `dir` is its userData folder. */
export function openConfStore(dir: string): KeyValueStore {
  return confKeyValueStore(
    new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      accessPropertiesByDotNotation: false,
    }) as ConfLike,
  );
}
