/**
 * A running Core, as `plugboard serve` runs one, serving a fresh config folder's socket with one unit
 * saved (its password only in that Core's memory), and the environment of a command with no keychain:
 * such a command reaches the unit only through the running Core.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Core } from '../../src-main/core/index';
import { openSavedCore } from '../../src-main/core/saved-core';
import { coreSocketPath } from '../../src-main/link';
import { MemorySecretStore } from '../../src-main/secrets';
import { listenCoreSocket } from '../../src-main/serve/core-socket';
import { cleanEnv } from './run-cli';

export interface RunningCore {
  core: Core;
  configDir: string;
  /** The saved unit's id. */
  id: string;
  /** For the command: this config folder, and no D-Bus session (so no keychain). */
  env: NodeJS.ProcessEnv;
}

/** Start it; `cleanups` gets what undoes it, to run in reverse order. */
export async function runningCore(
  unit: { url: string; name: string; password: string },
  cleanups: (() => Promise<unknown>)[],
): Promise<RunningCore> {
  const scratch = mkdtempSync(join(tmpdir(), 'plugboard-cli-core-'));
  cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));
  const configDir = join(scratch, 'config');
  const core = await openSavedCore({
    shell: 'test',
    version: '0',
    configDir,
    secrets: new MemorySecretStore(),
    log: () => undefined,
  });
  cleanups.push(() => core.dispose());
  const { id } = await core.handlers['controllers/add']({
    url: unit.url,
    name: unit.name,
    auth: { kind: 'digest', user: 'admin', password: unit.password },
  });
  const socket = await listenCoreSocket(core, coreSocketPath(configDir), () => undefined);
  cleanups.push(() => socket.close(1000));
  const env = cleanEnv({
    PLUGBOARD_CONFIG_DIR: configDir,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
  });
  return { core, configDir, id, env };
}
