import Store from 'electron-store';
import { plugboardConfigDir } from '../core/config-dir';
import type { KeyValueStore } from '../core/ports';
import { confKeyValueStore, type ConfLike } from '../core/conf-store';

/**
 * `config.json` in Plugboard's config folder — Electron's userData unless PLUGBOARD_CONFIG_DIR says
 * otherwise — the same file the CLI and the web shell open with `conf`.
 */
export function openElectronStore(): KeyValueStore {
  const store = new Store<Record<string, unknown>>({
    name: 'config',
    cwd: plugboardConfigDir(),
    accessPropertiesByDotNotation: false,
  });
  return confKeyValueStore(store as ConfLike);
}
