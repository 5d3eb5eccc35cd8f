/**
 * Measurement 18's lab service: the built `plugboard serve` (out/main/plugboard.js) on a config folder of
 * its own with the controllers saved (their passwords systemd credentials, no keychain, as under
 * systemd), its accounts (the first administrator added with `plugboard accounts add` on its machine,
 * the desks' accounts by that administrator through the remote link's `accounts/add`), sign-in over
 * `POST /api/v1/sign-in`, and the process's CPU time and memory read from /proc.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSavedCore } from '../../src-main/core/saved-core';
import { connectRemoteCore } from '../../src-main/link/remote';
import { controllerAccount, credentialName, MemorySecretStore } from '../../src-main/secrets';
import { repoRoot } from './build';
import { onCleanup, stopChild } from './cleanup';

const BIN = join(repoRoot, 'out', 'main', 'plugboard.js');
/** Every account's password (long enough for the accounts' rule). */
export const ACCOUNT_PASSWORD = 'a bench password, long enough';
/** Outside a desktop session: no keychain, as under systemd. */
const NO_DESKTOP = { DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' };

export interface SavedLab {
  configDir: string;
  credentials: string;
  remove(): Promise<void>;
}

/** A config folder holding these controllers, each password a systemd credential file. */
export async function savedLab(
  controllers: readonly { name: string; url: string; user: string; password: string }[],
): Promise<SavedLab> {
  const scratch = mkdtempSync(join(tmpdir(), 'plugboard-bench-lab-'));
  const remove = onCleanup(() => rmSync(scratch, { recursive: true, force: true }));
  const configDir = join(scratch, 'config');
  const credentials = join(scratch, 'credentials');
  mkdirSync(credentials, { mode: 0o700 });
  const secrets = new MemorySecretStore();
  const core = await openSavedCore({
    shell: 'test',
    version: '0',
    configDir,
    secrets,
    log: () => undefined,
  });
  try {
    for (let i = 0; i < controllers.length; i += 20)
      await Promise.all(
        controllers.slice(i, i + 20).map(async ({ name, url, user, password }) => {
          const added = await core.handlers['controllers/add']({
            name,
            url,
            auth: { kind: 'digest', user, password },
          });
          const account = controllerAccount(added.id);
          writeFileSync(join(credentials, credentialName(account)), (await secrets.get(account))!, {
            mode: 0o600,
          });
        }),
      );
  } finally {
    await core.dispose();
  }
  return { configDir, credentials, remove };
}

export interface Serve {
  child: ChildProcess;
  pid: number;
  /** The api listener, http://127.0.0.1:PORT */
  api: string;
  /** The loopback web window's address with its per-run token, when started with one. */
  web: string | null;
  stop(): Promise<void>;
}

/** Start the built service on `lab` with an api listener (and the web window when asked); at `Ready.`. */
export async function startServe(lab: SavedLab, withWeb: boolean): Promise<Serve> {
  const listen = ['--listen', 'api=127.0.0.1:0', ...(withWeb ? ['--listen', 'web=127.0.0.1:0'] : [])];
  const child = spawn(process.execPath, [BIN, 'serve', ...listen, '--config-dir', lab.configDir], {
    cwd: repoRoot,
    env: { ...process.env, ...NO_DESKTOP, CREDENTIALS_DIRECTORY: lab.credentials },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = onCleanup(() => stopChild(child, 15_000));
  let output = '';
  const ready = new Promise<void>((done, fail) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/^Ready\.$/m.test(output)) done();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('close', () => fail(new Error(`plugboard serve ended before Ready.:\n${output.trim()}`)));
  });
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  const api = /^api: (http:\/\/127\.0\.0\.1:\d+)\//m.exec(output)?.[1];
  if (!api) throw new Error(`plugboard serve printed no api address:\n${output.trim()}`);
  const web = /^web: (\S+)$/m.exec(output)?.[1] ?? null;
  return { child, pid: child.pid!, api, web, stop };
}

/** The first administrator, as its machine's owner adds it: `plugboard accounts add … --password-stdin`. */
export async function firstAdmin(lab: SavedLab, name: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [BIN, 'accounts', 'add', name, '--role', 'admin', '--password-stdin'],
    {
      cwd: repoRoot,
      env: { ...process.env, ...NO_DESKTOP, PLUGBOARD_CONFIG_DIR: lab.configDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin!.end(`${ACCOUNT_PASSWORD}\n`);
  const code = await new Promise<number | null>((done) => child.once('close', (c) => done(c)));
  if (code !== 0) throw new Error(`plugboard accounts add ${name} failed (${code}):\n${output.trim()}`);
}

/** A session from `POST /api/v1/sign-in`. */
export async function signIn(api: string, name: string): Promise<string> {
  const response = await fetch(`${api}/api/v1/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, password: ACCOUNT_PASSWORD }),
  });
  const body = (await response.json()) as { token?: string; error?: { message?: string } };
  if (!response.ok || !body.token)
    throw new Error(`Sign-in of ${name} refused (${response.status}): ${body.error?.message ?? ''}`);
  return body.token;
}

/** Operators (scope: everything) added by the administrator through the remote link. */
export async function addOperators(api: string, adminSession: string, names: string[]): Promise<void> {
  const link = await connectRemoteCore(api, { token: adminSession, handshakeMs: 60_000 });
  try {
    const handlers = link.handlersAs({ door: 'cli', who: 'admin' });
    for (const name of names)
      await handlers['accounts/add']({
        name,
        role: 'operator',
        scope: { kind: 'all' },
        password: ACCOUNT_PASSWORD,
      });
  } finally {
    await link.close();
  }
}

let clockTicks: number | null = null;

/** The process's CPU time (user + system) in seconds and resident memory in MB, from /proc. */
export function processUsage(pid: number): { cpuSeconds: number; rssMB: number } {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (in parentheses, which may hold spaces): utime is the 14th field.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / clockTicks;
  const rssKB = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return { cpuSeconds, rssMB: rssKB / 1024 };
}
