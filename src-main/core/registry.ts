import type { AuthKind, ControllerSummary, Group } from '../../src-preload/model';
import { PlugboardError } from '../dli/errors';
import { controllerAccount, type SecretStore } from '../secrets';
import { consoleLogger, type Logger } from './dispatch';
import type { KeyValueStore } from './ports';
import { normaliseControllerUrl, normaliseFingerprint } from './controller-address';
import { pickDefaultColour } from './colour-palette';
import {
  checkSecret,
  cleanAuth,
  cleanColour,
  cleanName,
  controllerNotFound,
  groupNotFound,
  newId,
} from './registry-input';
import {
  CONTROLLERS_KEY,
  GROUPS_KEY,
  controllerRecords,
  groupRecords,
  readControllers,
  readGroups,
  sameName,
} from './registry-records';
import { validateGroupInput, withoutController, type GroupInput } from './registry-groups';

export type { GroupInput } from './registry-groups';

/** What the person chose when adding a controller (the secret travels separately). */
export interface ControllerInput {
  name: string;
  /** Any address form; saved as `http[s]://host[:port]`. */
  url: string;
  auth: AuthKind;
  /** User name for digest/basic; ignored for tokens. */
  user?: string;
  /** Pinned certificate fingerprint (HTTPS), or null/absent. */
  fingerprint?: string | null;
  /** `#rrggbb`; a distinct palette colour when absent. */
  colour?: string;
  demo?: boolean;
}

/** Fields `update` may change; absent fields stay as they are. */
export type ControllerPatch = Partial<Omit<ControllerInput, 'demo'>>;

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
  /** Called after every change to the saved controllers. */
  onControllersChanged?: (controllers: ControllerSummary[]) => void;
  /** Called after every change to the saved groups (including outlets dropped with a controller). */
  onGroupsChanged?: (groups: Group[]) => void;
}

/**
 * The saved controllers and groups: one list shared by the app (electron-store) and the CLI (conf).
 * Secrets go only to the {@link SecretStore}; the settings file records whether one exists.
 */
export class ControllerRegistry {
  readonly #store: KeyValueStore;
  readonly #secrets: SecretStore;
  readonly #log: Logger;
  readonly #options: ControllerRegistryOptions;
  readonly #reported = new Set<string>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ControllerRegistryOptions) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#log = options.log ?? consoleLogger();
    this.#options = options;
  }

  /** Saved controllers, sorted by their order. */
  list(): ControllerSummary[] {
    return this.#readControllers();
  }

  /** The saved controller with this id, or null. */
  get(id: string): ControllerSummary | null {
    return this.#readControllers().find((c) => c.id === id) ?? null;
  }

  /** Like {@link get}, but a missing controller is a NOT_FOUND error. */
  getOrThrow(id: string): ControllerSummary {
    const found = this.get(id);
    if (!found) throw controllerNotFound(id);
    return found;
  }

  /** A controller by id, or by name (case-insensitive). Null when neither matches. */
  find(nameOrId: string): ControllerSummary | null {
    const all = this.#readControllers();
    const needle = nameOrId.trim();
    return all.find((c) => c.id === needle) ?? all.find((c) => sameName(c.name, needle)) ?? null;
  }

  /** Save a new controller (its secret, if any, in the keychain first). */
  add(input: ControllerInput, secret: string | null): Promise<ControllerSummary> {
    return this.#exclusive(async () => {
      const all = this.#readControllers();
      const name = cleanName(input.name, 'controller');
      this.#checkUniqueName(all, name, null);
      const { auth, user } = cleanAuth(input.auth, input.user);
      checkSecret(secret);
      const record: ControllerSummary = {
        id: newId('c', (id) => all.some((c) => c.id === id)),
        name,
        url: normaliseControllerUrl(input.url),
        auth,
        user,
        hasSecret: secret !== null,
        fingerprint: input.fingerprint ? normaliseFingerprint(input.fingerprint) : null,
        colour:
          input.colour === undefined
            ? pickDefaultColour(all.map((c) => c.colour))
            : cleanColour(input.colour),
        order: all.length === 0 ? 0 : Math.max(...all.map((c) => c.order)) + 1,
        demo: input.demo === true,
      };
      if (secret !== null) await this.#secrets.set(controllerAccount(record.id), secret);
      try {
        return this.#writeControllers([...all, record]).at(-1)!;
      } catch (error) {
        if (secret !== null) await this.#secrets.delete(controllerAccount(record.id)).catch(() => false);
        throw error;
      }
    });
  }

  /**
   * Change a saved controller. `secret`: undefined keeps the stored one, null forgets it, a string
   * replaces it. Either everything changes or nothing does.
   */
  update(id: string, patch: ControllerPatch, secret?: string | null): Promise<ControllerSummary> {
    return this.#exclusive(async () => {
      const all = this.#readControllers();
      const current = all.find((c) => c.id === id);
      if (!current) throw controllerNotFound(id);
      const next: ControllerSummary = { ...current };
      if (patch.name !== undefined) {
        next.name = cleanName(patch.name, 'controller');
        this.#checkUniqueName(all, next.name, id);
      }
      if (patch.url !== undefined) next.url = normaliseControllerUrl(patch.url);
      if (patch.auth !== undefined || patch.user !== undefined) {
        Object.assign(next, cleanAuth(patch.auth ?? current.auth, patch.user ?? (current.user || undefined)));
      }
      if (patch.fingerprint !== undefined)
        next.fingerprint = patch.fingerprint ? normaliseFingerprint(patch.fingerprint) : null;
      if (patch.colour !== undefined) next.colour = cleanColour(patch.colour);
      checkSecret(secret);
      const account = controllerAccount(id);
      const previousSecret =
        secret !== undefined && current.hasSecret ? await this.#secrets.get(account) : null;
      if (secret !== undefined) {
        if (secret !== null) await this.#secrets.set(account, secret);
        else if (current.hasSecret) await this.#secrets.delete(account);
        next.hasSecret = secret !== null;
      }
      try {
        return this.#writeControllers(all.map((c) => (c.id === id ? next : c))).find((c) => c.id === id)!;
      } catch (error) {
        if (secret !== undefined) await this.#restoreSecret(account, previousSecret);
        throw error;
      }
    });
  }

  /** Forget a controller, its secret, and its outlets in groups. */
  remove(id: string): Promise<RemoveResult> {
    return this.#exclusive(async () => {
      const all = this.#readControllers();
      const removed = all.find((c) => c.id === id);
      if (!removed) throw controllerNotFound(id);
      try {
        await this.#secrets.delete(controllerAccount(id));
      } catch (error) {
        // Without a stored secret there is nothing to leak, so an unreachable keychain must not block removal.
        if (removed.hasSecret) throw error;
      }
      const remaining = all.filter((c) => c.id !== id);
      const pruned = withoutController(this.#readGroups(new Set(all.map((c) => c.id))), id);
      this.#writeControllers(remaining);
      if (pruned.changed) this.#writeGroups(pruned.groups);
      return { removed, groupsChanged: pruned.changed };
    });
  }

  /** Put the listed controllers first, in this order; any not listed keep their relative order after them. */
  reorder(ids: readonly string[]): ControllerSummary[] {
    const all = this.#readControllers();
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) throw new PlugboardError('BAD_INPUT', `The new order names controller ${id} twice.`);
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
    return this.#writeControllers(ordered);
  }

  /** The stored password or token of a controller; null when it has none. */
  async secretFor(id: string): Promise<string | null> {
    const controller = this.getOrThrow(id);
    if (!controller.hasSecret) return null;
    return this.#secrets.get(controllerAccount(id));
  }

  /** Saved groups, in the order they were created. */
  listGroups(): Group[] {
    return this.#readGroups(new Set(this.#readControllers().map((c) => c.id)));
  }

  /** Create (no id) or replace a group. Names are unique (case-insensitive); outlets are 1-based. */
  saveGroup(input: GroupInput): Group {
    const controllers = this.#readControllers();
    const groups = this.#readGroups(new Set(controllers.map((c) => c.id)));
    const valid = validateGroupInput(input, controllers, groups);
    const group: Group = {
      id: valid.id ?? newId('g', (id) => groups.some((g) => g.id === id)),
      name: valid.name,
      members: valid.members,
    };
    const next = valid.id ? groups.map((g) => (g.id === valid.id ? group : g)) : [...groups, group];
    this.#writeGroups(next);
    return group;
  }

  /** Forget a group. */
  removeGroup(id: string): void {
    const groups = this.listGroups();
    if (!groups.some((g) => g.id === id)) throw groupNotFound(id);
    this.#writeGroups(groups.filter((g) => g.id !== id));
  }

  /** The saved group with this id (its outlets all belong to saved controllers); NOT_FOUND when there is none. */
  getGroupOrThrow(id: string): Group {
    const group = this.listGroups().find((g) => g.id === id);
    if (!group) throw groupNotFound(id);
    return group;
  }

  #checkUniqueName(all: readonly ControllerSummary[], name: string, selfId: string | null): void {
    const clash = all.find((c) => c.id !== selfId && sameName(c.name, name));
    if (clash)
      throw new PlugboardError(
        'BAD_INPUT',
        `A controller named "${clash.name}" is already saved: choose another name.`,
      );
  }

  async #restoreSecret(account: string, previous: string | null): Promise<void> {
    await (previous === null ? this.#secrets.delete(account) : this.#secrets.set(account, previous)).catch(
      () => undefined,
    );
  }

  #problem = (reason: string): void => {
    if (this.#reported.has(reason)) return;
    this.#reported.add(reason);
    this.#log(`settings file: ${reason}`);
  };

  #read(key: string): unknown {
    try {
      return this.#store.get<unknown>(key, undefined);
    } catch (error) {
      throw new PlugboardError(
        'INTERNAL',
        `Plugboard could not read its settings file (${error instanceof Error ? error.message : String(error)}). Fix or delete config.json in the Plugboard settings folder.`,
        undefined,
        { cause: error },
      );
    }
  }

  #readControllers(): ControllerSummary[] {
    return readControllers(this.#read(CONTROLLERS_KEY), this.#problem);
  }

  #readGroups(controllerIds: ReadonlySet<string>): Group[] {
    return readGroups(this.#read(GROUPS_KEY), controllerIds, this.#problem);
  }

  /** Write the list with orders renumbered 0…n-1 (explicit fields only: nothing else can slip in). */
  #writeControllers(list: readonly ControllerSummary[]): ControllerSummary[] {
    const records = controllerRecords(list);
    this.#store.set(CONTROLLERS_KEY, records);
    this.#options.onControllersChanged?.(structuredClone(records));
    return records;
  }

  #writeGroups(groups: readonly Group[]): void {
    const records = groupRecords(groups);
    this.#store.set(GROUPS_KEY, records);
    this.#options.onGroupsChanged?.(structuredClone(records));
  }

  /** Mutations that await the keychain run one at a time, so two adds cannot both claim a name. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
