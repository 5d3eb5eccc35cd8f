import type { SecretStore } from './secret-store';

/** Secrets in a Map: for tests and throwaway runs (the web shell's demo) that cannot reach a keychain. */
export class MemorySecretStore implements SecretStore {
  /** Forgotten when the process stops: the window says "this session only". */
  readonly keeps = 'session' as const;
  /** Why no keychain is used (what the keychain said, when one was tried): the window shows it. */
  readonly why: string | null;
  readonly #secrets = new Map<string, string>();

  constructor(why: string | null = null) {
    this.why = why;
  }

  async get(account: string): Promise<string | null> {
    return this.#secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    this.#secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.#secrets.delete(account);
  }

  async accounts(): Promise<string[]> {
    return [...this.#secrets.keys()];
  }

  /** How many secrets are held (tests check that removals really forget). */
  get size(): number {
    return this.#secrets.size;
  }
}
