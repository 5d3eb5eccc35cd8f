/**
 * The machine's Core over the saved controllers: Plugboard's config folder (config.json under its
 * inter-process lock), the lab store (the activity log: SQLite in the folder, or PostgreSQL) and the OS
 * keychain. The web shell, `plugboard serve` and the
 * CLI open it this way; the desktop app does the same with electron-store. On PostgreSQL the lab's
 * configuration (controllers, groups, settings) is the store's, shared by every service of the lab
 * (flows/lab-config-move.ts); this machine's keychain journal stays in config.json.
 */
import { KeytarSecretStore, MemorySecretStore, type SecretStore } from '../secrets';
import { prepareConfigFolder } from '../shared/config-folder';
import type { Logger } from '../shared/logging';
import { openConfStore } from './saved/conf-store';
import { plugboardConfigDir } from './saved/config-dir';
import { openConfigStore } from './flows/lab-config-move';
import { openLabRecords } from './flows/lab-records';
import { createCore, type Core, type CoreOptions } from './index';

export { openLabRecords } from './flows/lab-records';
export { postgresLease } from './database/service-lease';

export interface SavedCoreOptions extends Partial<Omit<CoreOptions, 'shell' | 'version' | 'log'>> {
  shell: CoreOptions['shell'];
  version: string;
  log: Logger;
  /** The config folder (default: plugboardConfigDir(), which honours PLUGBOARD_CONFIG_DIR). */
  configDir?: string;
  /** Where the lab store is said to be (PLUGBOARD_DATABASE_URL…, connection.ts); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Who writes the lab's configuration on PostgreSQL (a service's --name); default this machine and process. */
  writtenBy?: string;
}

export async function openSavedCore(options: SavedCoreOptions): Promise<Core> {
  const dir = options.configDir ?? plugboardConfigDir();
  // Owner-only, nobody else's, no planted links: refused with what to do before anything is written.
  prepareConfigFolder(dir);
  // The lab store first: a store a newer Plugboard wrote is refused before anything starts.
  const records =
    options.records ??
    (await openLabRecords(dir, options.version, options.log, (options.clock ?? Date).now(), options.env));
  try {
    const store =
      options.store ??
      (await openConfigStore({
        store: records.store,
        local: openConfStore(dir),
        dir,
        log: options.log,
        now: (options.clock ?? Date).now(),
        ...(options.writtenBy ? { writtenBy: options.writtenBy } : {}),
      }));
    return createCore({
      store,
      dataDir: dir,
      visible: false,
      ...options,
      records,
      secrets: options.secrets ?? (await keychainOrMemory(options.log)),
    });
  } catch (error) {
    await records.store.close();
    throw error;
  }
}

/**
 * The OS keychain when one answers. A headless lab box often has no Secret Service: rather than refuse
 * to start, the Core then keeps passwords in memory for this run and says so — controllers saved with a
 * password in the keychain ask for it again, and passwords typed now are forgotten when it stops.
 */
export async function keychainOrMemory(log: Logger): Promise<SecretStore> {
  const keychain = new KeytarSecretStore();
  try {
    await keychain.get('plugboard:availability-check');
    return keychain;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(
      `WARNING: the system keychain is not available, so passwords will NOT be remembered: they are kept in memory until Plugboard stops. ${reason}`,
    );
    return new MemorySecretStore(reason);
  }
}
