/**
 * One Core per machine (per config folder): the long-running process that runs it — `plugboard serve`,
 * or the desktop app when no service runs — holds `<configDir>/core.lock` (via proper-lockfile,
 * refreshed every 2 s; a lock not refreshed for 10 s belongs to a process that died and is taken over).
 * A service is refused while another service or the app holds it.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { lock } from 'proper-lockfile';
import { PlugboardError } from '../shared/errors';

export const CORE_LOCK_FILE = 'core.lock';

export interface CoreLock {
  release(): Promise<void>;
}

export async function takeCoreLock(configDir: string, onLost: (error: Error) => void): Promise<CoreLock> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const lockfilePath = path.join(configDir, CORE_LOCK_FILE);
  let release: () => Promise<void>;
  try {
    release = await lock(path.join(configDir, 'core'), {
      lockfilePath,
      realpath: false,
      stale: 10_000,
      update: 2_000,
      retries: 0,
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED')
      throw new PlugboardError(
        'BAD_INPUT',
        `Another Plugboard already runs the Core for ${configDir} (a service, or the desktop app; it holds ${lockfilePath}).`,
        undefined,
        {
          action:
            'Stop it first (quit the app, or systemctl stop plugboard), or give this one another --config-dir.',
        },
      );
    throw new PlugboardError(
      'INTERNAL',
      `Plugboard could not take ${lockfilePath} (${(error as Error).message}).`,
      undefined,
      {
        cause: error,
        action: 'Check that the config folder exists and is writable by the service.',
      },
    );
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await release().catch(() => undefined);
    },
  };
}
