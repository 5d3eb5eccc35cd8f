import type { ControllerSummary, Group } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { controllerAccount, type SecretStore } from '../../secrets';
import { consoleLogger, type Logger } from '../../shared/logging';
import type { KeyValueStore } from '../kernel/ports';
import { checkSecret, controllerNotFound, groupNotFound, newId } from './registry-input';
import { sameConnection, sameName } from './registry-records';
import { validateGroupInput, withoutController, type GroupInput } from './registry-groups';
import { RegistryFile, type ExternalChange } from './registry-file';
import {
  journal,
  readStoredSecret,
  rebindSecret,
  sweepJournal,
  unjournal,
  type BoundSecret,
} from './registry-secrets';
import { boundPlaceChanges, sealSecret, secretElsewhere } from './registry-envelope';
import type { SecretPlace } from './secret-binding';
import { newRecord, patchedRecord, type ControllerInput, type ControllerPatch } from './controller-input';

export type { ControllerInput, ControllerPatch } from './controller-input';
export type { GroupInput } from './registry-groups';
export type { ExternalChange } from './registry-file';
export type { BoundSecret } from './registry-secrets';

export interface UpdateOptions {
  /**
   * With no new secret: bind the stored one to the changed place. Only after the person confirmed that
   * it may go there (secret-binding.ts); without it, a moved record's secret is sent nowhere.
   */
  rebindSecret?: boolean;
}

export interface RemoveResult {
  removed: ControllerSummary;
  /** Groups lost outlets (or vanished) because the controller is gone. */
  groupsChanged: boolean;
}

export interface ControllerRegistryOptions {
  store: KeyValueStore;
  secrets: SecretStore;
  /** Where problems with the saved data are reported (each distinct problem once). */
  log?: Logger;
  /** Called after every change to the saved controllers, this process's or another's. */
  onControllersChanged?: (controllers: ControllerSummary[]) => void;
  /** Called after every change to the saved groups (including outlets dropped with a controller). */
  onGroupsChanged?: (groups: Group[]) => void;
  /** Called when another process changed the saved controllers (see {@link ControllerRegistry.follow}). */
  onExternalChange?: (change: ExternalChange) => void;
}

/**
 * The saved controllers and groups: one list shared by the app (electron-store), the web shell and the
 * CLI (conf). Reads go to the file each time. Every change is a read-modify-write that runs one at a
 * time, under the file's inter-process lock, re-reading the file inside it (registry-file.ts); a change
 * that touches the keychain holds the lock across the keychain calls, in the order registry-secrets.ts
 * describes. Secrets go only to the {@link SecretStore}; the file records whether one exists.
 */
export class ControllerRegistry {
  readonly #file: RegistryFile;
  readonly #secrets: SecretStore;
  readonly #log: Logger;

  constructor(options: ControllerRegistryOptions) {
    this.#secrets = options.secrets;
    this.#log = options.log ?? consoleLogger();
    this.#file = new RegistryFile(options.store, options, this.#log);
  }

  /** Saved controllers, sorted by their order. */
  list(): ControllerSummary[] {
    return this.#file.controllers();
  }

  /** The saved controller with this id, or null. */
  get(id: string): ControllerSummary | null {
    return this.list().find((c) => c.id === id) ?? null;
  }

  /** Like {@link get}, but a missing controller is a NOT_FOUND error. */
  getOrThrow(id: string): ControllerSummary {
    const found = this.get(id);
    if (!found) throw controllerNotFound(id);
    return found;
  }

  /** A controller by id, or by name (case-insensitive). Null when neither matches. */
  find(nameOrId: string): ControllerSummary | null {
    const all = this.list();
    const needle = nameOrId.trim();
    return all.find((c) => c.id === needle) ?? all.find((c) => sameName(c.name, needle)) ?? null;
  }

  /**
   * Hear of changes other processes make to the file as they happen (events, and
   * `onExternalChange`). Returns "stop following".
   */
  follow(): () => void {
    return this.#file.follow();
  }

  /** Delete keychain entries left behind by a change that did not finish (see registry-secrets.ts). */
  sweepSecrets(): Promise<string[]> {
    return this.#file.exclusive(() => sweepJournal(this.#file, this.#secrets, this.#log));
  }

  /** Save a new controller (its secret, if any, in the keychain first). */
  add(input: ControllerInput, secret: string | null): Promise<ControllerSummary> {
    return this.#changeSecrets(async () => {
      const all = this.list();
      const record = newRecord(all, input, secret);
      const account = controllerAccount(record.id);
      if (secret !== null) {
        journal(this.#file, account);
        try {
          await this.#secrets.set(account, sealSecret(secret, record));
        } catch (error) {
          unjournal(this.#file, account);
          throw error;
        }
      }
      // Should this write fail, the sweep that ends every change deletes the secret again.
      return this.#file.writeControllers([...all, record]).at(-1)!;
    });
  }

  /**
   * Change a saved controller. `secret`: undefined keeps the stored one, null forgets it, a string
   * replaces it. Either everything changes or nothing does.
   */
  update(
    id: string,
    patch: ControllerPatch,
    secret?: string | null,
    options: UpdateOptions = {},
  ): Promise<ControllerSummary> {
    return this.#changeSecrets(async () => {
      const all = this.list();
      const current = all.find((c) => c.id === id);
      if (!current) throw controllerNotFound(id);
      const next = patchedRecord(all, current, patch);
      checkSecret(secret);
      const account = controllerAccount(id);
      const write = (record: ControllerSummary) =>
        this.#file.writeControllers(all.map((c) => (c.id === id ? record : c))).find((c) => c.id === id)!;
      if (secret === undefined) {
        if (!options.rebindSecret || !current.hasSecret) return write(next);
        return rebindSecret(this.#secrets, current, next, write, () => this.#restore(() => write(current)));
      }
      journal(this.#file, account);
      next.hasSecret = secret !== null;
      // Forgetting: the record first; the sweep then deletes the keychain entry.
      if (secret === null) return write(next);
      // Replacing: the keychain first, so the record never claims a secret that is not there. With a new
      // address or login, the record first moves without a secret: a process dying half-way never leaves
      // the new secret saved for the old address, nor the old secret for the new one.
      const moves = !sameConnection(current, next);
      const previous = current.hasSecret ? await this.#secrets.get(account) : null;
      if (moves) write({ ...next, hasSecret: false });
      try {
        await this.#secrets.set(account, sealSecret(secret, next));
        return write(next);
      } catch (error) {
        if (moves) this.#restore(() => write(current));
        if (previous !== null) await this.#secrets.set(account, previous).catch(() => undefined);
        throw error;
      }
    });
  }

  /** Forget a controller, its secret, and its outlets in groups. */
  remove(id: string): Promise<RemoveResult> {
    return this.#changeSecrets(async () => {
      const all = this.list();
      const removed = all.find((c) => c.id === id);
      if (!removed) throw controllerNotFound(id);
      const account = controllerAccount(id);
      // A keychain that cannot be reached now refuses the removal before anything changes.
      if (removed.hasSecret) await this.#secrets.get(account);
      journal(this.#file, account);
      const pruned = withoutController(this.#file.groups(all), id);
      this.#file.writeControllers(all.filter((c) => c.id !== id));
      if (pruned.changed) this.#file.writeGroups(pruned.groups);
      return { removed, groupsChanged: pruned.changed };
    });
  }

  /** Put the listed controllers first, in this order; any not listed keep their relative order after them. */
  reorder(ids: readonly string[]): Promise<ControllerSummary[]> {
    return this.#file.exclusive(async () => {
      const all = this.list();
      const seen = new Set<string>();
      for (const id of ids) {
        if (seen.has(id))
          throw new PlugboardError('BAD_INPUT', `The new order names controller ${id} twice.`);
        if (!all.some((c) => c.id === id))
          throw new PlugboardError(
            'NOT_FOUND',
            `The new order names ${JSON.stringify(id).slice(0, 80)}, which is not a saved controller.`,
          );
        seen.add(id);
      }
      const ordered = [
        ...ids.map((id) => all.find((c) => c.id === id)!),
        ...all.filter((c) => !seen.has(c.id)),
      ];
      return this.#file.writeControllers(ordered);
    });
  }

  /**
   * The stored password or token of a controller, to be sent to `place` (by default: the saved record);
   * null when it has none. Refused (AUTH_FAILED, detail.confirmSecret) when the secret is bound to
   * another place: the settings file changed outside Plugboard's checks (registry-envelope.ts).
   */
  async secretFor(id: string, place?: SecretPlace): Promise<string | null> {
    const controller = this.getOrThrow(id);
    if (!controller.hasSecret) return null;
    const stored = await readStoredSecret(this.#file, this.#secrets, id);
    if (stored === null) return null;
    const target = place ?? controller;
    if (boundPlaceChanges(stored.place, target).length > 0)
      throw secretElsewhere(controller, stored.place, target);
    return stored.secret;
  }

  /**
   * The stored secret with the place it is bound to, unchecked: for code that checks the place itself
   * against what the person confirmed (secret-binding.ts). Null when there is none.
   */
  async storedSecret(id: string): Promise<BoundSecret | null> {
    if (!this.getOrThrow(id).hasSecret) return null;
    return readStoredSecret(this.#file, this.#secrets, id);
  }

  /** Saved groups, in the order they were created. */
  listGroups(): Group[] {
    return this.#file.groups();
  }

  /** Create (no id) or replace a group. Names are unique (case-insensitive); outlets are 1-based. */
  saveGroup(input: GroupInput): Promise<Group> {
    return this.#file.exclusive(async () => {
      const controllers = this.list();
      const groups = this.#file.groups(controllers);
      const valid = validateGroupInput(input, controllers, groups);
      const group: Group = {
        id: valid.id ?? newId('g', (id) => groups.some((g) => g.id === id)),
        name: valid.name,
        members: valid.members,
        ...(valid.steps ? { kind: 'sequence' as const, steps: valid.steps } : {}),
      };
      const next = valid.id ? groups.map((g) => (g.id === valid.id ? group : g)) : [...groups, group];
      this.#file.writeGroups(next);
      return group;
    });
  }

  /** Forget a group. */
  removeGroup(id: string): Promise<void> {
    return this.#file.exclusive(async () => {
      const groups = this.listGroups();
      if (!groups.some((g) => g.id === id)) throw groupNotFound(id);
      this.#file.writeGroups(groups.filter((g) => g.id !== id));
    });
  }

  /** The saved group with this id (its outlets all belong to saved controllers); NOT_FOUND when there is none. */
  getGroupOrThrow(id: string): Group {
    const group = this.listGroups().find((g) => g.id === id);
    if (!group) throw groupNotFound(id);
    return group;
  }

  /** Put a record back after a failed change; a second failure is logged, the first one is what the caller hears. */
  #restore(write: () => unknown): void {
    try {
      write();
    } catch (error) {
      this.#log('could not put a controller back after a failed change', error);
    }
  }

  /**
   * A change that may touch the keychain: under the lock, and settled by a sweep whether it worked or
   * not. The sweep is a second turn of the lock, after the change is written: the lab's configuration
   * on PostgreSQL writes a change only when its turn ends (lab-config.ts), and the sweep must see what
   * was written, not what the change meant to write, before it deletes a keychain entry.
   */
  async #changeSecrets<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await this.#file.exclusive(task);
    } finally {
      await this.#file
        .exclusive(() => sweepJournal(this.#file, this.#secrets, this.#log))
        .catch((error: unknown) => this.#log('could not settle the keychain journal', error));
    }
  }
}
