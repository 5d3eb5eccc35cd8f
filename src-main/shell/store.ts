import Store from 'electron-store';
import { plugboardConfigDir } from '../core/config';
import { CONFIG_FILE_MODE, confKeyValueStore, type ConfLike, type KeyValueStore } from '../core/store';
import { prepareConfigFolder } from '../shared/config-folder';

/**
 * `config.json` in Plugboard's config folder — Electron's userData unless PLUGBOARD_CONFIG_DIR says
 * otherwise — the same file the CLI and the web shell open with `conf`.
 */
export function openElectronStore(): KeyValueStore {
  prepareConfigFolder(plugboardConfigDir());
  const store = new Store<Record<string, unknown>>({
    name: 'config',
    cwd: plugboardConfigDir(),
    accessPropertiesByDotNotation: false,
    configFileMode: CONFIG_FILE_MODE,
  });
  return confKeyValueStore(store as ConfLike);
}
