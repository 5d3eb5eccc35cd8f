/**
 * Ports: what the Core needs from the outside world, passed in by each shell. Tests pass real
 * implementations where they exist here (files, keychain, HTTP) and small fakes where they do not.
 */

/** A persistent JSON key-value store: electron-store in the app, `conf` in the CLI, a Map in tests. */
export interface KeyValueStore {
  get<T>(key: string, fallback: T): T;
  set(key: string, value: unknown): void;
  /**
   * Run a read-modify-write under the store's inter-process lock (a shared file: see conf-store.ts);
   * `get` inside re-reads what other processes wrote. Absent: the store is private to this process.
   */
  exclusive?<T>(task: () => Promise<T>): Promise<T>;
  /** Call `listener` (debounced) when the stored data may have changed on disk; returns "stop watching". */
  watch?(listener: () => void): () => void;
}

/** In-memory store for tests and throwaway runs (the web shell's `--demo`). */
export class MemoryStore implements KeyValueStore {
  readonly #data = new Map<string, unknown>();

  get<T>(key: string, fallback: T): T {
    return this.#data.has(key) ? (structuredClone(this.#data.get(key)) as T) : fallback;
  }

  set(key: string, value: unknown): void {
    this.#data.set(key, structuredClone(value));
  }
}
