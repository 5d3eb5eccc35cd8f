/**
 * Where passwords and tokens live: the OS keychain in the app and the CLI, memory in tests. Nothing
 * else in Plugboard may hold a secret at rest; the settings file only records *whether* one exists.
 */
export interface SecretStore {
  /** The secret stored under `account`, or null when there is none. */
  get(account: string): Promise<string | null>;
  /** Store (or replace) the secret under `account`. */
  set(account: string, secret: string): Promise<void>;
  /** Forget the secret under `account`; true when one was there. */
  delete(account: string): Promise<boolean>;
  /** Every account this store holds a secret under (its own service only), in no particular order. */
  accounts(): Promise<string[]>;
  /**
   * Where what it holds lives: `keychain` outlasts this process (the OS keychain, a systemd
   * credential), `session` is forgotten when Plugboard stops (memory: no keychain answered). Absent:
   * keychain.
   */
  readonly keeps?: SecretKeeping;
  /** Why no keychain answered, in a sentence (a store that keeps secrets for this session only). */
  readonly why?: string | null;
}

export type SecretKeeping = 'keychain' | 'session';

/** Where a store keeps its secrets (a store that does not say is a keychain). */
export function keepingOf(store: SecretStore): SecretKeeping {
  return store.keeps ?? 'keychain';
}

/** The keychain account that holds a saved controller's password or token. */
export function controllerAccount(controllerId: string): string {
  return `controller:${controllerId}`;
}
