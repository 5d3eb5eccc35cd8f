/**
 * Where a Core keeps the lab's configuration (saved/lab-config.ts says why): config.json with SQLite,
 * the lab store with PostgreSQL. At the first start on a PostgreSQL store that holds no configuration
 * yet, this config folder's controllers, groups and settings move in, in one transaction; config.json is
 * kept as it is, and a copy of it as `config.json.imported-<time>` like the other moves. Two services
 * starting at once on an empty store: one move wins (the store's lock), the other uses what it wrote.
 *
 * A store that already holds the lab's configuration is never merged with a folder's: the store's is
 * used, and when this folder's controllers differ from it the log says so once, with how many.
 */
import { chmodSync, constants, copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ControllerSummary } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import { storeLocation } from '../database/connection';
import { readLabConfig } from '../database/lab-config-rows';
import { openPostgresStore, type LabStore } from '../database/lab-store';
import type { KeyValueStore } from '../kernel/ports';
import { sameJson } from '../kernel/same-json';
import { configBackupName, CONFIG_FILE } from '../reservations/reservation-import';
import { CONFIG_FILE_MODE } from '../saved/conf-store';
import { LAB_CONFIG_KEYS, openLabConfig, type LabConfigStore } from '../saved/lab-config';
import { CONTROLLERS_KEY, GROUPS_KEY, readControllers } from '../saved/registry-records';

export interface ConfigStoreOptions {
  /** The lab store, opened. */
  store: LabStore;
  /** This folder's config.json (conf, or electron-store in the desktop app). */
  local: KeyValueStore;
  /** The config folder. */
  dir: string;
  log: Logger;
  now: number;
  /** Who writes the store's rows (a service's name); default this machine and process. */
  writtenBy?: string;
}

/** The KeyValueStore a Core keeps its configuration in: `local` on SQLite, the lab's on PostgreSQL. */
export async function openConfigStore(options: ConfigStoreOptions): Promise<KeyValueStore> {
  if (options.store.engine !== 'postgres') return options.local;
  const config = await openLabConfig(options.store, options.local, {
    log: options.log,
    ...(options.writtenBy ? { writtenBy: options.writtenBy } : {}),
  });
  await moveConfigIn(config, options);
  return config;
}

/** Move this folder's configuration in when the store has none; else say when the two differ. */
export async function moveConfigIn(config: LabConfigStore, options: ConfigStoreOptions): Promise<boolean> {
  const { local, dir, log, now } = options;
  const values: Record<string, unknown> = {};
  for (const key of LAB_CONFIG_KEYS) {
    try {
      values[key] = local.get<unknown>(key, undefined);
    } catch (error) {
      log(`could not read ${CONFIG_FILE} to move the lab's configuration into the lab store`, error);
      return false;
    }
  }
  const any = Object.values(values).some((value) => value !== undefined);
  if (config.empty() && any && (await config.seed(values))) {
    const backup = keepCopy(dir, now);
    const controllers = readControllers(values[CONTROLLERS_KEY] ?? [], () => undefined).length;
    const groups = Array.isArray(values[GROUPS_KEY]) ? values[GROUPS_KEY].length : 0;
    log(
      `moved ${controllers} controller(s), ${groups} group(s) and the settings from ${CONFIG_FILE} into the lab store ${config.where}; ${CONFIG_FILE} is left as it was${backup ? `, and a copy is kept as ${backup}` : ''}`,
    );
    return true;
  }
  const differ = differing(
    readControllers(values[CONTROLLERS_KEY] ?? [], () => undefined),
    readControllers(config.get<unknown>(CONTROLLERS_KEY, []), () => undefined),
  );
  if (differ > 0)
    log(
      `The lab's configuration from the lab store ${config.where} is used; this folder's ${CONFIG_FILE} was left as it is (${differ} of its controllers differ from the lab's).`,
    );
  return false;
}

/** How many of `mine` are not in `lab` as they are (missing there, or saved differently). */
function differing(mine: readonly ControllerSummary[], lab: readonly ControllerSummary[]): number {
  const byId = new Map(lab.map((c) => [c.id, c]));
  return mine.filter((c) => {
    const theirs = byId.get(c.id);
    return !theirs || !sameJson({ ...c, order: 0 }, { ...theirs, order: 0 });
  }).length;
}

/**
 * A copy of config.json beside it. A move of the reservations at this same start may have kept one
 * under the same name already: that copy, of the file as it was before, is the one kept.
 */
function keepCopy(dir: string, now: number): string | null {
  const file = join(dir, CONFIG_FILE);
  const backup = configBackupName(now);
  if (!existsSync(file)) return null;
  if (existsSync(join(dir, backup))) return backup;
  copyFileSync(file, join(dir, backup), constants.COPYFILE_EXCL);
  chmodSync(join(dir, backup), CONFIG_FILE_MODE);
  return backup;
}

/**
 * The lab's saved controllers as a command reads them to tell where a typed address goes, when its
 * environment names a PostgreSQL lab store: the lab's configuration lives there, and this folder's
 * config.json may be stale or empty. Null when the store is SQLite (config.json is the place).
 */
export async function labStoreControllers(
  env: NodeJS.ProcessEnv,
  version: string,
): Promise<ControllerSummary[] | null> {
  const location = storeLocation(env);
  if (location.engine !== 'postgres') return null;
  const store = await openPostgresStore(location.url, version);
  try {
    const copy = await readLabConfig(store);
    return readControllers(copy.values.get(CONTROLLERS_KEY) ?? [], () => undefined);
  } finally {
    await store.close();
  }
}
