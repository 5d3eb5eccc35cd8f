import { controllerAccount, type SecretStore } from '../secrets';
import type { Logger } from '../shared/logging';
import type { RegistryFile } from './registry-file';

/**
 * The keychain has no transactions, and the settings file and the keychain cannot change together.
 * The order of writes keeps one promise: a saved controller that says it has a secret has it.
 *
 * - add: the account goes into the file's journal, then the secret into the keychain, then the record
 *   into the file;
 * - new secret: journal, keychain, record (the old secret is put back if the record cannot be written);
 *   with a new address or login as well: journal, the record moved without a secret, keychain, the
 *   record with its secret — so a secret is never saved for an address it was not typed for;
 * - forget a secret, remove a controller: journal, then the record, then the keychain entry is deleted
 *   by the sweep below.
 *
 * A process that dies between two steps leaves at worst a keychain entry nobody points to, named in the
 * journal. Every write ends with a sweep, and so does the Core's start: each journalled account whose
 * controller is saved with a secret is kept, every other one is deleted from the keychain. All of this
 * runs under the settings file's lock, so a sweep never sees another process half-way.
 */

/** Put `account` in the journal before the keychain is touched. */
export function journal(file: RegistryFile, account: string): void {
  const entries = file.journal();
  if (!entries.includes(account)) file.writeJournal([...entries, account]);
}

/**
 * Settle the journal: delete the keychain entries no saved controller needs. An entry the keychain
 * refuses to delete stays in the journal for the next sweep. Returns the accounts deleted.
 */
export async function sweepJournal(file: RegistryFile, secrets: SecretStore, log: Logger): Promise<string[]> {
  const entries = file.journal();
  if (entries.length === 0) return [];
  const needed = new Set(
    file
      .controllers()
      .filter((c) => c.hasSecret)
      .map((c) => controllerAccount(c.id)),
  );
  const kept: string[] = [];
  const deleted: string[] = [];
  for (const account of entries) {
    if (needed.has(account)) continue;
    try {
      await secrets.delete(account);
      deleted.push(account);
    } catch (error) {
      log(
        `could not remove the keychain entry ${account} of a removed controller; will try again later`,
        error,
      );
      kept.push(account);
    }
  }
  try {
    file.writeJournal(kept);
  } catch (error) {
    // The deletions are done; a journal that still names them only costs a repeated sweep.
    log('could not update the keychain journal in the settings file', error);
  }
  return deleted;
}
