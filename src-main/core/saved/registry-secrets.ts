import type { ControllerSummary } from '../../../src-preload/model';
import { controllerAccount, type SecretStore } from '../../secrets';
import type { Logger } from '../../shared/logging';
import type { RegistryFile } from './registry-file';
import { boundPlaceChanges, openSecret, placeOf, sealSecret } from './registry-envelope';
import type { SecretPlace } from './secret-binding';

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
 * - a confirmed move without a new secret (`rebindSecret`): the record first, then the keychain value
 *   bound to the new place; a process dying between the two leaves the secret bound to the old place,
 *   where it is sent nowhere until the person confirms again.
 *
 * The keychain value binds the secret to its place (registry-envelope.ts), so the order above never
 * lets a secret reach a place it was not saved or confirmed for, whatever the file says.
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
 * Take `account` out of the journal again: the keychain refused to store it, so there is nothing to
 * delete later (a sweep would only fail on the same keychain, once per change).
 */
export function unjournal(file: RegistryFile, account: string): void {
  const entries = file.journal();
  if (entries.includes(account)) file.writeJournal(entries.filter((entry) => entry !== account));
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

/**
 * The secret of a saved controller with the place it is bound to (registry-envelope.ts); null when the
 * record has none or the keychain lost it. A bare secret saved by 0.1 is bound to the record as it is
 * now and saved again as an envelope, under the file's lock (`exclusive`), so a concurrent change of the
 * record or the secret is not overwritten. Must not be called from inside `exclusive`.
 */
export async function readStoredSecret(
  file: RegistryFile,
  secrets: SecretStore,
  id: string,
): Promise<BoundSecret | null> {
  const account = controllerAccount(id);
  const first = await secrets.get(account);
  if (first === null) return null;
  const opened = openSecret(first);
  if (opened.place) return { secret: opened.secret, place: opened.place };
  return file.exclusive(async () => {
    const record = file.controllers().find((c) => c.id === id);
    if (!record?.hasSecret) return null;
    const raw = await secrets.get(account);
    if (raw === null) return null;
    const again = openSecret(raw);
    if (again.place) return { secret: again.secret, place: again.place };
    const place = placeOf(record);
    await secrets.set(account, sealSecret(again.secret, place));
    return { secret: again.secret, place };
  });
}

/** A secret and the place it was saved (or last confirmed) for. */
export interface BoundSecret {
  secret: string;
  place: SecretPlace;
}

/**
 * A confirmed move without a new secret: the record first, then the secret bound to the new place. When
 * the keychain refuses, `restore` puts the old record back and the error is what the caller hears.
 */
export async function rebindSecret(
  secrets: SecretStore,
  current: ControllerSummary,
  next: ControllerSummary,
  write: (record: ControllerSummary) => ControllerSummary,
  restore: () => void,
): Promise<ControllerSummary> {
  const account = controllerAccount(current.id);
  const raw = await secrets.get(account);
  const saved = write(next);
  if (raw === null) return saved;
  const stored = openSecret(raw);
  if (stored.place && boundPlaceChanges(stored.place, next).length === 0) return saved;
  try {
    await secrets.set(account, sealSecret(stored.secret, next));
  } catch (error) {
    restore();
    throw error;
  }
  return saved;
}
