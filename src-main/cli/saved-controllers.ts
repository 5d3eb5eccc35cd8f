/**
 * The saved controllers as the command line opens them: Plugboard's config.json (conf, under the
 * inter-process lock) with secrets in the OS keychain (keytar). Loaded only by the commands that read
 * them (`--controller`, `controllers …`): connect.ts imports this file on first use, so a command given
 * `--url` never loads conf, ajv, proper-lockfile or keytar.
 */
import { openConfStore, ControllerRegistry } from '../core/store';
import { KeytarSecretStore } from '../secrets';
import { configDirOf, type Terminal } from './io';

export function openSavedControllers(terminal: Terminal): ControllerRegistry {
  return new ControllerRegistry({
    store: openConfStore(configDirOf(terminal.io.env)),
    secrets: new KeytarSecretStore(),
    log: (message) => terminal.warn(`plugboard: ${message}`),
  });
}
