import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { keychainService, sharedKeychainEnv } from '../secrets/shared-keychain';

/**
 * Real Plugboard processes for tests: each runs fixtures/config-child.ts (the registry over the conf
 * store, as the CLI and the web shell run it). With a keyring, they use the run's shared keychain
 * (test/secrets/shared-keychain.ts) under a service name of the keyring's own, so what they find there
 * is only what processes given the same keyring stored.
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
}

/** A keychain of its own for a test's children: the shared Secret Service, a new service name and HOME. */
export function keyring(scratch: string): Keyring {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  return {
    env: { ...sharedKeychainEnv(home), PLUGBOARD_TEST_KEYCHAIN_SERVICE: keychainService('processes') },
  };
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
