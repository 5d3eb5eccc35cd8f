import type { SecretStore } from './secret-store';
import { keychainError, keychainUnavailable } from './keychain-errors';

type Keytar = typeof import('keytar');

export interface KeytarSecretStoreOptions {
  /** Keychain service name; every Plugboard secret lives under "Plugboard". */
  service?: string;
}

let keytarModule: Promise<Keytar> | null = null;

/** Load the native module on first use so a missing libsecret is a clear error, not a crash at start. */
function loadKeytar(): Promise<Keytar> {
  keytarModule ??= import('keytar').then(
    (mod) => ((mod as { default?: Keytar }).default ?? mod) as Keytar,
    (error: unknown) => {
      keytarModule = null;
      throw keychainUnavailable(error);
    },
  );
  return keytarModule;
}

/** The OS keychain through keytar: Keychain on macOS, Credential Manager on Windows, Secret Service on Linux. */
export class KeytarSecretStore implements SecretStore {
  readonly service: string;
  readonly keeps = 'keychain' as const;

  constructor(options: KeytarSecretStoreOptions = {}) {
    this.service = options.service ?? 'Plugboard';
  }

  async get(account: string): Promise<string | null> {
    const keytar = await loadKeytar();
    try {
      return await keytar.getPassword(this.service, account);
    } catch (error) {
      throw keychainError('read', error);
    }
  }

  async set(account: string, secret: string): Promise<void> {
    const keytar = await loadKeytar();
    try {
      await keytar.setPassword(this.service, account, secret);
    } catch (error) {
      throw keychainError('store', error);
    }
  }

  async delete(account: string): Promise<boolean> {
    const keytar = await loadKeytar();
    try {
      return await keytar.deletePassword(this.service, account);
    } catch (error) {
      throw keychainError('delete', error);
    }
  }

  /** keytar can only list accounts together with their secrets; the secrets are dropped at once. */
  async accounts(): Promise<string[]> {
    const keytar = await loadKeytar();
    try {
      return (await keytar.findCredentials(this.service)).map((credential) => credential.account);
    } catch (error) {
      throw keychainError('read', error);
    }
  }
}
