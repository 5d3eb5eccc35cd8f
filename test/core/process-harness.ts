import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';

/**
 * Real Plugboard processes for tests: each runs fixtures/config-child.ts (the registry over the conf
 * store, as the CLI and the web shell run it). A keyring is a private `dbus-run-session` with an
 * unlocked gnome-keyring whose files live in a temporary HOME, as in test/secrets.
 */

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, 'fixtures', 'config-child.ts');

export interface Child {
  /** The process has loaded and waits for `go`. */
  ready: Promise<void>;
  go(): void;
  /** The `RESULT` line it printed. */
  result: Promise<Record<string, unknown>>;
}

export interface Keyring {
  /** Environment for children that use this keyring. */
  env: NodeJS.ProcessEnv;
  /** End the session (its bus and gnome-keyring go with it). */
  stop(): Promise<void>;
}

/** Start a private bus with an unlocked keyring in a new HOME under `scratch`. */
export function startKeyring(scratch: string): Promise<Keyring> {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: path.join(home, 'data'),
    DISPLAY: '',
  };
  // `cat` keeps the session open until stop() closes its stdin.
  const script =
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; echo "BUS $DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null';
  const session: ChildProcessWithoutNullStreams = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env,
  });
  const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
  const stop = async () => {
    if (session.exitCode === null && session.signalCode === null) session.stdin.end();
    await closed;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    session.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('BUS '));
      if (line) resolve({ env: { ...env, DBUS_SESSION_BUS_ADDRESS: line.slice(4).trim() }, stop });
    });
    session.on('error', reject);
    void closed.then(() => reject(new Error(`the keyring session ended early: ${out}`)));
  });
}

/** Start one child: `add <dir> <prefix> <count>`, `remove <dir> <ids>` or `inspect <dir>`. */
export function child(args: string[], env: NodeJS.ProcessEnv, options: { keychain?: boolean } = {}): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], {
    cwd: root,
    env: { ...env, PLUGBOARD_TEST_KEYCHAIN: options.keychain === false ? '0' : '1' },
  });
  let out = '';
  let err = '';
  let readied: () => void;
  const ready = new Promise<void>((resolve) => (readied = resolve));
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('READY\n')) readied();
  });
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const result = new Promise<Record<string, unknown>>((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) return reject(new Error(`child printed no result.\nstdout: ${out}\nstderr: ${err}`));
      resolve(JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>);
    });
  });
  return { ready, go: () => proc.stdin.end('go\n'), result };
}

/** Release children together once every one is loaded, and collect their results. */
export async function together(children: Child[]): Promise<Record<string, unknown>[]> {
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.go();
  return Promise.all(children.map((c) => c.result));
}
