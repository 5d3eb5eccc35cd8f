import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PlugboardError } from '../shared/errors';
import { keepingOf, type SecretKeeping, type SecretStore } from './secret-store';

/**
 * Secrets for a service without a desktop: systemd credentials. A unit's `LoadCredential=` or
 * `LoadCredentialEncrypted=` (made with `systemd-creds encrypt`) puts each credential in a private,
 * read-only folder named by `$CREDENTIALS_DIRECTORY`, readable only by the service. Nothing is written
 * anywhere: a credential is read when needed.
 *
 * A keychain account maps to one credential, named `plugboard.` followed by the account with `:` as `.`:
 * a saved controller's password or token (account `controller:<id>`) is the credential
 * `plugboard.controller.<id>`. Its content is the password or token (a trailing newline is dropped).
 *
 * Accounts without a credential go to `fallback` (the keychain where one answers, else memory). A
 * secret Plugboard re-binds to its controller's place (registry-envelope.ts) is kept in memory for
 * this run, never written back: the credential is the operator's.
 */
export class SystemdCredentialStore implements SecretStore {
  readonly #dir: string;
  readonly #fallback: SecretStore;
  /** Values set for accounts a credential backs: this run only. */
  readonly #overlay = new Map<string, string>();

  constructor(directory: string, fallback: SecretStore) {
    this.#dir = directory;
    this.#fallback = fallback;
  }

  /** Credentials outlast the process; accounts without one live where the fallback keeps them. */
  get keeps(): SecretKeeping {
    return keepingOf(this.#fallback);
  }

  /** The credential's file, or null when the account's name cannot be a credential name. */
  path(account: string): string {
    return path.join(this.#dir, credentialName(account));
  }

  async get(account: string): Promise<string | null> {
    const kept = this.#overlay.get(account);
    if (kept !== undefined) return kept;
    const credential = await this.#read(account);
    return credential ?? this.#fallback.get(account);
  }

  async set(account: string, secret: string): Promise<void> {
    if ((await this.#read(account)) !== null) this.#overlay.set(account, secret);
    else await this.#fallback.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    const kept = this.#overlay.delete(account);
    return (await this.#fallback.delete(account)) || kept;
  }

  /** The fallback's accounts: credentials are not Plugboard's to sweep or delete. */
  accounts(): Promise<string[]> {
    return this.#fallback.accounts();
  }

  async #read(account: string): Promise<string | null> {
    try {
      const text = await readFile(this.path(account), 'utf8');
      return text.replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw new PlugboardError(
        'INTERNAL',
        `Plugboard could not read the systemd credential ${this.path(account)} (${code ?? (error as Error).message}).`,
        undefined,
        { cause: error, action: "Check the unit's LoadCredential= lines and `systemctl status plugboard`." },
      );
    }
  }
}

/** The systemd credential name for a keychain account: `controller:c1a2` → `plugboard.controller.c1a2`. */
export function credentialName(account: string): string {
  return `plugboard.${account.replace(/:/g, '.').replace(/[^A-Za-z0-9._-]/g, '_')}`;
}
