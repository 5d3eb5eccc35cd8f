import * as v from 'valibot';
import {
  DEFAULT_SETTINGS,
  calls,
  parseInput,
  type CallParsed,
  type FavouriteRef,
  type MeterThreshold,
  type Settings,
} from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import { consoleLogger, type Logger } from '../../shared/logging';
import type { KeyValueStore } from '../kernel/ports';

import { sameJson } from '../kernel/same-json';

export const SETTINGS_KEY = 'settings';

/** A partial change, exactly what `settings/set` accepts. */
export type SettingsPatch = CallParsed<'settings/set'>;

/** A fresh, mutable copy of the contract's defaults. */
export function defaultSettings(): Settings {
  return structuredClone(DEFAULT_SETTINGS) as Settings;
}

const settingsKeys = Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[];
/** The contract's own per-field schemas: one definition of what a valid setting is. */
const fieldSchemas = calls['settings/set'].input.entries;

export interface SettingsStoreOptions {
  store: KeyValueStore;
  /** Where a corrupted saved value is reported (each distinct problem once). */
  log?: Logger;
  /** Called with the whole settings after every change. */
  onChange?: (settings: Settings) => void;
}

/**
 * App settings in the shared settings file, with defaults for anything missing or broken. Kept in
 * memory (the pollers ask several times per poll); a change is a read-modify-write under the file's
 * inter-process lock that re-reads the file first, and {@link SettingsStore.follow} picks up what
 * another process (the CLI, the web shell, a second app) saved.
 */
export class SettingsStore {
  readonly #store: KeyValueStore;
  readonly #log: Logger;
  readonly #onChange: ((settings: Settings) => void) | undefined;
  readonly #reported = new Set<string>();
  /**
   * The settings as last read or written. The pollers ask for them several times per poll, and the
   * app's store (electron-store/conf) reads and parses the whole file on every access.
   */
  #cached: Settings | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SettingsStoreOptions) {
    this.#store = options.store;
    this.#log = options.log ?? consoleLogger();
    this.#onChange = options.onChange;
  }

  /** A copy of the current settings; each missing or invalid saved field reads as its default. */
  get(): Settings {
    this.#cached ??= this.#read();
    return structuredClone(this.#cached);
  }

  /** Re-read the file whenever it changes, and announce settings another process changed. Returns "stop". */
  follow(): () => void {
    return (
      this.#store.watch?.(() => {
        try {
          this.#reload();
        } catch (error) {
          this.#log('could not re-read the settings after another process changed them', error);
        }
      }) ?? (() => undefined)
    );
  }

  /** Read the file again; announce the settings if they are not what this process last knew. */
  #reload(): Settings {
    const fresh = this.#read();
    if (this.#cached !== null && !sameJson(this.#cached, fresh)) {
      this.#cached = fresh;
      this.#onChange?.(structuredClone(fresh));
    }
    this.#cached = fresh;
    return structuredClone(fresh);
  }

  #read(): Settings {
    const raw = this.#store.get<unknown>(SETTINGS_KEY, undefined);
    const settings = defaultSettings();
    if (raw === undefined) return settings;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      this.#problem('the saved settings are not an object; using the defaults');
      return settings;
    }
    const saved = raw as Record<string, unknown>;
    for (const key of settingsKeys) {
      if (saved[key] === undefined) continue;
      const parsed = v.safeParse(fieldSchemas[key], saved[key]);
      if (parsed.success && parsed.output !== undefined) Object.assign(settings, { [key]: parsed.output });
      else this.#problem(`the saved setting "${key}" is invalid; using the default`);
    }
    return settings;
  }

  /** Validate and apply a partial change; nothing is saved if any part is wrong. */
  update(patch: unknown): Promise<Settings> {
    const parsed = parseInput('settings/set', patch);
    if (!parsed.ok) return Promise.reject(new PlugboardError('BAD_INPUT', parsed.message));
    const change = parsed.value;
    for (const threshold of change.meterThresholds ?? []) {
      if (threshold.min !== null && threshold.max !== null && threshold.min > threshold.max) {
        return Promise.reject(
          new PlugboardError(
            'BAD_INPUT',
            `The threshold for meter ${threshold.key} has its minimum (${threshold.min}) above its maximum (${threshold.max}).`,
          ),
        );
      }
    }
    return this.#exclusive(async () => {
      const next: Settings = { ...this.#reload() };
      for (const key of settingsKeys) {
        if (change[key] !== undefined) Object.assign(next, { [key]: change[key] });
      }
      next.trayFavourites = uniqueFavourites(next.trayFavourites);
      return this.#write(next);
    });
  }

  /**
   * Replace one controller's meter thresholds as `decide` says (null: leave them), reading the saved
   * settings under the lock first so a change made meanwhile by another process is kept.
   */
  replaceMeterThresholds(
    decide: (thresholds: readonly MeterThreshold[]) => MeterThreshold[] | null,
  ): Promise<Settings | null> {
    return this.#exclusive(async () => {
      const current = this.#reload();
      const thresholds = decide(current.meterThresholds);
      return thresholds === null ? null : this.#write({ ...current, meterThresholds: thresholds });
    });
  }

  /** Drop a removed controller's tray favourites and meter thresholds. */
  forgetController(controllerId: string): Promise<Settings> {
    return this.#exclusive(async () => {
      const current = this.#reload();
      const next: Settings = {
        ...current,
        // A lab's favourites name the lab's controllers, not this computer's.
        trayFavourites: current.trayFavourites.filter(
          (f) => f.lab !== undefined || f.controllerId !== controllerId,
        ),
        meterThresholds: current.meterThresholds.filter((t) => t.controllerId !== controllerId),
      };
      if (
        next.trayFavourites.length === current.trayFavourites.length &&
        next.meterThresholds.length === current.meterThresholds.length
      )
        return current;
      return this.#write(next);
    });
  }

  #write(settings: Settings): Settings {
    this.#store.set(SETTINGS_KEY, settings);
    this.#cached = structuredClone(settings);
    this.#onChange?.(structuredClone(settings));
    return settings;
  }

  /** One change at a time in this process; over a shared file, also under its inter-process lock. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const locked = () => (this.#store.exclusive ? this.#store.exclusive(task) : task());
    const run = this.#queue.then(locked, locked);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #problem(reason: string): void {
    if (this.#reported.has(reason)) return;
    this.#reported.add(reason);
    this.#log(`settings file: ${reason}`);
  }
}

/** Each favourite once, in order: this computer's outlets, and a desk's lab outlets with their lab. */
function uniqueFavourites(refs: readonly FavouriteRef[]): FavouriteRef[] {
  const seen = new Set<string>();
  const result: FavouriteRef[] = [];
  for (const { controllerId, outlet, lab } of refs) {
    const key = `${lab ?? ''}\u0000${controllerId}\u0000${outlet}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(lab === undefined ? { controllerId, outlet } : { controllerId, outlet, lab });
  }
  return result;
}
