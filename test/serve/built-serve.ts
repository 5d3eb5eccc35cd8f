/**
 * The built `plugboard serve` (out/main/plugboard.js, what users run) as a real child process, for
 * tests at the process level: its printed lines, its exit, its open file descriptors, and a config
 * folder with a saved controller whose password is a systemd credential (no keychain in the child, as
 * under systemd). Everything waits on the child's output, exit or a condition, never on elapsed time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ControllerSummary, Settings } from '../../src-preload/model';
import type { EmulatorOptions } from '../../src-main/emulator/index';
import { openSavedCore } from '../../src-main/core/saved-core';
import { controllerAccount, credentialName, MemorySecretStore } from '../../src-main/secrets';
import { builtNode } from '../built-node';
import { cleanUp, emulator } from '../core/harness';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BUILT_BIN = path.join(ROOT, 'out/main/plugboard.js');
/** The built web shell, what `npm run web` runs after building. */
export const BUILT_WEB = path.join(ROOT, 'out/main/web.js');

export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first stdout line matching, rejects if the process ends first. */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the first stderr line matching, rejects if the process ends first. */
  errLine(pattern: RegExp): Promise<RegExpExecArray>;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  exit: Promise<ServeExit>;
  /** The number of open file descriptors of the child (Linux /proc). */
  fdCount(): number;
}

const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

/** Kill what a test left running and remove its folders; call from afterEach. */
export async function cleanUpServe(): Promise<void> {
  endFloods();
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await cleanUp();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A scratch folder removed by cleanUpServe. */
export function scratchDir(prefix = 'plugboard-serve-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Fail early, with what to do, when out/ has not been built. */
export function assertBuilt(): void {
  if (!existsSync(BUILT_BIN))
    throw new Error(`${BUILT_BIN} is missing: build first (npx electron-vite build).`);
}

/**
 * Start `node out/main/plugboard.js <args>` (args usually begin with 'serve') on the Node the packaged
 * command runs on (builtNode: Electron's in test:all).
 */
export function runBuilt(args: string[], env: NodeJS.ProcessEnv = {}): ServeProcess {
  return runScript(builtNode(), BUILT_BIN, args, env);
}

/**
 * The built web shell (`node out/main/web.js <args>`, what `npm run web` runs on the developer's Node), on
 * the config folder PLUGBOARD_CONFIG_DIR names.
 */
export function webBuilt(args: string[], env: NodeJS.ProcessEnv = {}): ServeProcess {
  return runScript(process.execPath, BUILT_WEB, args, env);
}

function runScript(node: string, script: string, args: string[], env: NodeJS.ProcessEnv): ServeProcess {
  assertBuilt();
  const child = spawn(node, [script, ...args], {
    cwd: ROOT,
    // No desktop session: the child finds no keychain, as a systemd service would.
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '', ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const check of waiters) check();
  };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    wake();
  });
  const exit = new Promise<ServeExit>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const waitFor =
    (read: () => string) =>
    (pattern: RegExp): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = read()
            .split('\n')
            .map((l) => pattern.exec(l))
            .find((m) => m !== null);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
        void exit.then(() => {
          waiters.delete(check);
          reject(new Error(`plugboard ended before printing ${pattern}:\n${stdout}\n${stderr}`));
        });
      });
  return {
    child,
    exit,
    line: waitFor(() => stdout),
    errLine: waitFor(() => stderr),
    stdout: () => stdout,
    stderr: () => stderr,
    fdCount: () => readdirSync(`/proc/${child.pid}/fd`).length,
  };
}

/** A command of the built CLI (`node out/main/plugboard.js <args>`) to its exit, `stdin` written first. */
export function cliBuilt(args: string[], env: NodeJS.ProcessEnv = {}, stdin = ''): Promise<ServeExit> {
  const run = runBuilt(args, env);
  run.child.stdin.end(stdin);
  return run.exit;
}

/** `plugboard serve` from the built bin. */
export function serveBuilt(args: string[], env: NodeJS.ProcessEnv = {}): ServeProcess {
  return runBuilt(['serve', ...args], env);
}

export interface SavedBench {
  scratch: string;
  configDir: string;
  /** A systemd credentials folder ($CREDENTIALS_DIRECTORY) holding the controller's password. */
  credentials: string;
  controller: ControllerSummary;
  emu: Awaited<ReturnType<typeof emulator>>;
}

/** More of a saved bench: the emulator's options, the controller's MQTT topic root, settings saved. */
export interface BenchExtras {
  emulator?: EmulatorOptions;
  mqttTopic?: string;
  settings?: Partial<Settings>;
}

/**
 * A config folder with `bench-a` saved (as the app saves it), its password as a systemd credential.
 * With `through`, it is saved at the address `through` gives for the emulator's (a proxy in between).
 */
export async function savedBench(
  name = 'bench-a',
  through?: (url: string) => Promise<string>,
  extras: BenchExtras = {},
): Promise<SavedBench> {
  const scratch = scratchDir();
  const configDir = path.join(scratch, 'config');
  const credentials = path.join(scratch, 'credentials');
  mkdirSync(credentials, { mode: 0o700 });
  const emu = await emulator(extras.emulator);
  const secrets = new MemorySecretStore();
  const core = await openSavedCore({
    shell: 'test',
    version: '0.0.0-test',
    log: () => undefined,
    configDir,
    secrets,
  });
  const controller = await core.handlers['controllers/add']({
    url: through ? await through(emu.url) : emu.url,
    name,
    auth: { kind: 'digest', user: 'admin', password: '1234' },
    ...(extras.mqttTopic === undefined ? {} : { mqttTopic: extras.mqttTopic }),
  });
  if (extras.settings) await core.handlers['settings/set'](extras.settings);
  await core.dispose();
  const account = controllerAccount(controller.id);
  writeFileSync(path.join(credentials, credentialName(account)), (await secrets.get(account))!, {
    mode: 0o600,
  });
  return { scratch, configDir, credentials, controller, emu };
}

/** Write the service's tokens as the systemd credential `plugboard.tokens` (mode 0600). */
export function writeTokens(credentials: string, lines: string[]): void {
  writeFileSync(path.join(credentials, 'plugboard.tokens'), `${lines.join('\n')}\n`, { mode: 0o600 });
}

export interface ServedBench extends SavedBench {
  service: ServeProcess;
  /** The api listener's origin, `http://127.0.0.1:PORT`. */
  api: string;
  /** The pdudaemon listener's port on 127.0.0.1. */
  pdudaemon: number;
}

/**
 * A saved bench served by the built `plugboard serve` with these token lines (the credential
 * plugboard.tokens), its api and pdudaemon listeners on free loopback ports; resolves once Ready.
 */
export async function servedBench(tokenLines: string[]): Promise<ServedBench> {
  const bench = await savedBench();
  writeTokens(bench.credentials, tokenLines);
  const service = serveBuilt(
    ['--listen', 'api=127.0.0.1:0', '--listen', 'pdudaemon=127.0.0.1:0', '--config-dir', bench.configDir],
    { CREDENTIALS_DIRECTORY: bench.credentials },
  );
  const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
  const pdudaemon = Number((await service.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
  await service.line(/^Ready\.$/);
  return { ...bench, service, api, pdudaemon };
}

export interface Flood {
  sockets: Socket[];
  /** How many of them are closed so far (by the service, or refused). */
  closed(): number;
  /** Resolves once at least `count` of them are closed. */
  closedAtLeast(count: number): Promise<void>;
  /** Stop trickling and destroy every socket still open. */
  end(): void;
}

export interface FloodOptions {
  /** The client's own address (127.0.0.2…): the service's per-address caps see another client. */
  localAddress?: string;
  /** Sent once connected. */
  first?: string | Buffer;
  /** Sent again every second on every open socket: a slow client that is never quite silent. */
  trickle?: string;
}

const floods: Flood[] = [];

/**
 * `count` connections to 127.0.0.1:`port` that never complete a request, opened in batches (each batch
 * connected before the next, so the service's accept queue never overflows). Resolves once every one
 * has connected (or been refused).
 */
export async function flood(port: number, count: number, options: FloodOptions = {}): Promise<Flood> {
  const sockets: Socket[] = [];
  let closed = 0;
  const waiters = new Set<() => void>();
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, () => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
      socket.once('close', () => {
        closed++;
        for (const check of waiters) check();
      });
      return new Promise<void>((resolve) => {
        socket.once('connect', () => {
          if (options.first !== undefined) socket.write(options.first);
          resolve();
        });
        socket.once('close', () => resolve());
      });
    });
    await Promise.all(batch);
  }
  const trickle =
    options.trickle === undefined
      ? null
      : setInterval(() => {
          for (const socket of sockets) if (!socket.destroyed) socket.write(options.trickle!);
        }, 1000);
  const handle: Flood = {
    sockets,
    closed: () => closed,
    closedAtLeast: (n) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (closed < n) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    end() {
      if (trickle) clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
  floods.push(handle);
  return handle;
}

/** End every flood a test left open (cleanUpServe does). */
export function endFloods(): void {
  for (const f of floods.splice(0)) f.end();
}
