/**
 * Child process for "start to first state": one cold start of the web shell over a config folder with
 * saved controllers, their passwords in a real keychain (gnome-keyring under the dbus-run-session this
 * runs in) or, without one, in memory. Talks to the bench over stdin/stdout lines:
 *   → `SETUP <json>` once the controllers are saved (not timed)
 *   ← `GO`           start now
 *   → `UP <json>`    the shell listens: { url, t0, up } (epoch ms with sub-ms precision)
 *   ← `STOP`         close and exit
 * The URL carries the session token: it goes to the bench only, never to a log.
 */
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createCore, type Core } from '../../src-main/core/index';
import { KeytarSecretStore, MemorySecretStore } from '../../src-main/secrets/index';
import { openConfStore } from '../../src-main/core/store';
import { startWebShell, type RunningWebShell } from '../../src-main/web/server';
import { rendererDir } from './build';
import { saveControllers } from './core-harness';

const epoch = (): number => performance.timeOrigin + performance.now();
const say = (word: string, data: unknown): void =>
  void process.stdout.write(`${word} ${JSON.stringify(data)}\n`);

async function main(): Promise<void> {
  const configDir = process.env.PLUGBOARD_CONFIG_DIR;
  const urls = JSON.parse(process.env.PLUGBOARD_BENCH_URLS ?? '[]') as string[];
  if (!configDir || urls.length === 0)
    throw new Error('PLUGBOARD_CONFIG_DIR and PLUGBOARD_BENCH_URLS are required');
  const keychain = process.env.PLUGBOARD_BENCH_KEYCHAIN === '1';
  // Setup (not timed): the saved list on disk, the passwords in the keychain.
  const setupSecrets = keychain ? new KeytarSecretStore() : new MemorySecretStore();
  await saveControllers(urls, openConfStore(configDir), setupSecrets);
  say('SETUP', { controllers: urls.length, keychain });

  let core: Core | null = null;
  let shell: RunningWebShell | null = null;
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'GO') {
      const t0 = epoch();
      // With a keychain: the shell exactly as `npm run web` starts it (its own Core over the config
      // folder and the keychain). Without one the shell would fall back to an empty in-memory store, so
      // the bench hands it a Core with the passwords it kept in memory.
      if (!keychain) {
        core = createCore({
          shell: 'web',
          version: 'bench',
          store: openConfStore(configDir),
          secrets: setupSecrets,
          dataDir: configDir,
          log: (message) => console.error(`[core] ${message}`),
        });
      }
      shell = await startWebShell({
        port: 0,
        rendererDir,
        log: (message) => console.error(`[web] ${message}`),
        ...(core ? { core } : {}),
      });
      say('UP', { url: shell.url, t0, up: epoch() });
    } else if (line === 'STOP') break;
  }
  await shell?.close();
  await core?.dispose();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`first-state child: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
