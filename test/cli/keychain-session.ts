/**
 * CLI steps with the real OS keychain: one `dbus-run-session` per test file with an unlocked
 * gnome-keyring whose files live in a temporary HOME (the real Secret Service), started on first use and
 * reached by the steps, which run in this process (run-cli.ts) one after another, each with the saved
 * list in a temporary PLUGBOARD_CONFIG_DIR. Give the `home` of earlier steps to go on with their saved
 * controllers. Files using it are system tests (`*.system.test.ts`): the session is child processes.
 *
 * libsecret keeps its first connection to the bus for the life of the process, so a file has one keychain;
 * `forgetSecrets` takes a saved list's secrets out of it, as a new keychain would not have them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { CONTROLLERS_KEY, readControllers } from '../../src-main/core/config';
import { KeytarSecretStore, controllerAccount } from '../../src-main/secrets';
import { cleanEnv, cli, useKeychainBus } from './run-cli';

const scratch = mkdtempSync(join(tmpdir(), 'plugboard-cli-keychain-'));

export interface Step {
  name: string;
  args: string[];
  stdin?: string;
}
export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
}

interface Session {
  bus: string;
  stop(): Promise<void>;
}

let session: Promise<Session> | null = null;
afterAll(async () => {
  const started = await session?.catch(() => null);
  await started?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Start the file's bus and unlocked keyring; resolves once the keyring is up, with the bus address. */
function startSession(): Promise<Session> {
  const home = mkdtempSync(join(scratch, 'keyring-'));
  // `cat` keeps the session open until stop() closes its standard input.
  const script =
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; echo "BUS $DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null';
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env: cleanEnv({ HOME: home, XDG_DATA_HOME: join(home, 'data'), DISPLAY: '' }),
  });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.stdin.end();
    await closed;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('BUS '));
      if (line) resolve({ bus: line.slice(4).trim(), stop });
    });
    child.on('error', reject);
    void closed.then(() => reject(new Error(`the keyring session ended early: ${out}${said}`)));
  });
}

/** The environment of the steps with saved controllers in `home`. */
async function stepEnv(home: string): Promise<NodeJS.ProcessEnv> {
  session ??= startSession();
  const { bus } = await session;
  return cleanEnv({
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    PLUGBOARD_CONFIG_DIR: join(home, 'plugboard'),
    DISPLAY: '',
    DBUS_SESSION_BUS_ADDRESS: bus,
  });
}

/**
 * Run the steps one after another with the file's keychain; collect each step's output. Give the `home`
 * of earlier steps to go on with their saved controllers.
 */
export async function inKeychainSession(
  steps: Step[],
  home = mkdtempSync(join(scratch, 'home-')),
): Promise<{ results: Record<string, StepResult>; configDir: string; home: string }> {
  const env = await stepEnv(home);
  const results: Record<string, StepResult> = {};
  for (const { name, args, stdin } of steps) {
    // A line of standard input, as `command <<EOF` hands it over.
    const result = await cli(args, { env, stdin: stdin === undefined ? '' : `${stdin}\n` });
    results[name] = { code: result.code!, stdout: result.stdout, stderr: result.stderr };
  }
  return { results, configDir: env.PLUGBOARD_CONFIG_DIR!, home };
}

/**
 * Remove the saved controllers' secrets of a config folder from the keychain, as a new keychain would
 * have them (and nothing else: what other tests saved stays); how many there were.
 */
export async function forgetSecrets(configDir: string): Promise<number> {
  useKeychainBus(await stepEnv(scratch));
  const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as Record<string, unknown>;
  const keychain = new KeytarSecretStore();
  let forgotten = 0;
  for (const { id } of readControllers(config[CONTROLLERS_KEY], () => undefined))
    if (await keychain.delete(controllerAccount(id))) forgotten++;
  return forgotten;
}
