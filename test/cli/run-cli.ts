/**
 * Runs the `plugboard` command line in this process (`runCli`, what the built command runs) with a
 * recording io: stdout and stderr collected, stdin from a string (a pipe, never a terminal), and the
 * environment given explicitly. A run also fails when it leaves a timer or handle running after it
 * resolved (left-running.ts). The process boundary itself (exit codes, stdin, signals, npm run) is
 * tested on the built command in built-command.system.test.ts.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { PassThrough, Writable } from 'node:stream';
import { resolve } from 'node:path';
import { runCli } from '../../src-main/cli/program';
import { whatIsLeftRunning } from './left-running';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not). */
  json<T = unknown>(): T;
}

export interface CliRun {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

/** Environment without anything from the caller that would change the CLI's behaviour. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['PLUGBOARD_URL', 'PLUGBOARD_USER', 'PLUGBOARD_PASSWORD', 'FORCE_COLOR', 'NO_COLOR'])
    delete env[key];
  return { ...env, ...extra };
}

/** A stream that keeps what is written to it, as a pipe would hand it over (no terminal). */
function recorder(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

/**
 * The D-Bus session the keychain (keytar, through libsecret) reaches. libsecret reads it from this
 * process's environment when it first connects and keeps that connection, so each run sets it from the
 * environment it was given until keytar is loaded; from then on a run asking for another bus is refused
 * rather than silently reaching the first (a Vitest worker runs one file).
 */
const require = createRequire(import.meta.url);
let keychainBus: string | undefined;
export function useKeychainBus(env: NodeJS.ProcessEnv): void {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (require.resolve('keytar') in require.cache) {
    if (address === keychainBus) return;
    throw new Error(
      `The keychain was reached on D-Bus ${String(keychainBus)} in this process; it cannot switch to ${String(address)}.`,
    );
  }
  keychainBus = address;
  if (address === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = address;
}

/** `plugboard …` in this process, as `node out/main/plugboard.js …` would run it with a piped stdin. */
export async function cli(args: string[], options: CliRun = {}): Promise<CliResult> {
  const env = options.env ?? cleanEnv();
  useKeychainBus(env);
  const out = recorder();
  const err = recorder();
  const input = new PassThrough();
  input.end(options.stdin ?? '');
  const { value: code, left } = await whatIsLeftRunning(() =>
    // Ctrl+C (SIGINT) of its own: a command that listens for it must not take this process's.
    runCli(args, { out: out.stream, err: err.stream, in: input, env, signals: new EventEmitter() }),
  );
  const stdout = out.text();
  const stderr = err.text();
  if (left.length > 0) {
    throw new Error(
      `plugboard ${args.join(' ')} resolved (exit ${code}) but left running: ${left.join(', ')}\n${stderr}`,
    );
  }
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** The warning every use of --password prints (tested on its own in cli-input.test.ts). */
export const PASSWORD_WARNING = 'plugboard: warning: --password is visible to every user';

/** The lines a result printed on stderr, without npm's own configuration noise or the --password warning. */
export function errorLines(result: CliResult): string[] {
  return result.stderr
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('npm warn') && !line.startsWith(PASSWORD_WARNING));
}
