import type { ControllerSummary, Group } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import type { Logger } from '../../shared/logging';
import type { KeyValueStore } from '../kernel/ports';
import {
  CONTROLLERS_KEY,
  GROUPS_KEY,
  controllerRecords,
  groupRecords,
  readControllers,
  readGroups,
} from './registry-records';
import { sameJson } from '../kernel/same-json';

/**
 * Keychain accounts whose entry may not match the saved controllers: written to the file before the
 * keychain is touched, and cleared by the sweep (registry-secrets.ts) once the file and the keychain
 * agree again. Only accounts this file once named are ever swept, so a second settings folder
 * (PLUGBOARD_CONFIG_DIR) sharing the same keychain never loses its secrets.
 */
export const JOURNAL_KEY = 'keychainJournal';

/** What another process changed, as this one last saw it and as it is now. */
export interface ExternalChange {
  before: ControllerSummary[];
  after: ControllerSummary[];
}

export interface RegistryFileEvents {
  onControllersChanged?: (controllers: ControllerSummary[]) => void;
  onGroupsChanged?: (groups: Group[]) => void;
  /** Another process changed the saved controllers (this one's own writes never call it). */
  onExternalChange?: (change: ExternalChange) => void;
}

/**
 * The registry's view of the shared settings file: validated reads, writes that announce themselves,
 * and what the file held when this process last wrote or looked — so a change made by another
 * process is told apart from this one's own and announced once.
 */
export class RegistryFile {
  readonly #store: KeyValueStore;
  readonly #events: RegistryFileEvents;
  readonly #log: Logger;
  readonly #reported = new Set<string>();
  #known: { controllers: ControllerSummary[]; groups: Group[] } | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(store: KeyValueStore, events: RegistryFileEvents, log: Logger) {
    this.#store = store;
    this.#events = events;
    this.#log = log;
  }

  /**
   * Run a read-modify-write: one at a time in this process and, over a shared file, under its
   * inter-process lock. Whatever another process wrote meanwhile is announced before `task` runs.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const locked = () => {
      const inner = async () => {
        this.refresh();
        return task();
      };
      return this.#store.exclusive ? this.#store.exclusive(inner) : inner();
    };
    const run = this.#queue.then(locked, locked);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Announce changes other processes made; call with `watch` to hear of them as they happen. Returns "stop". */
  follow(): () => void {
    this.refresh();
    return (
      this.#store.watch?.(() => {
        try {
          this.refresh();
        } catch (error) {
          this.#log('could not re-read the settings file after another process changed it', error);
        }
      }) ?? (() => undefined)
    );
  }

  /** Compare the file with what this process last saw; announce what differs. */
  refresh(): void {
    const controllers = this.controllers();
    const groups = this.groups(controllers);
    const known = this.#known;
    this.#known = { controllers, groups };
    if (!known) return;
    if (!sameJson(known.controllers, controllers)) {
      this.#events.onControllersChanged?.(structuredClone(controllers));
      this.#events.onExternalChange?.({ before: known.controllers, after: structuredClone(controllers) });
    }
    if (!sameJson(known.groups, groups)) this.#events.onGroupsChanged?.(structuredClone(groups));
  }

  controllers(): ControllerSummary[] {
    return readControllers(this.#read(CONTROLLERS_KEY), this.#problem);
  }

  groups(controllers: readonly ControllerSummary[] = this.controllers()): Group[] {
    return readGroups(this.#read(GROUPS_KEY), new Set(controllers.map((c) => c.id)), this.#problem);
  }

  /** Write the list with orders renumbered 0…n-1 (explicit fields only: nothing else can slip in). */
  writeControllers(list: readonly ControllerSummary[]): ControllerSummary[] {
    const records = controllerRecords(list);
    this.#store.set(CONTROLLERS_KEY, records);
    if (this.#known) this.#known.controllers = this.controllers();
    this.#events.onControllersChanged?.(structuredClone(records));
    return records;
  }

  writeGroups(groups: readonly Group[]): void {
    const records = groupRecords(groups);
    this.#store.set(GROUPS_KEY, records);
    if (this.#known) this.#known.groups = this.groups();
    this.#events.onGroupsChanged?.(structuredClone(records));
  }

  journal(): string[] {
    const raw = this.#read(JOURNAL_KEY);
    if (!Array.isArray(raw)) return [];
    return [...new Set(raw.filter((a): a is string => typeof a === 'string' && a.startsWith('controller:')))];
  }

  writeJournal(accounts: readonly string[]): void {
    this.#store.set(JOURNAL_KEY, [...accounts]);
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
}
