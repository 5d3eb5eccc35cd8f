/**
 * Issue 16 items 4 and 13 against a real Secret Service (gnome-keyring, files in a temporary HOME): a new
 * password for Plugboard's own user reaches the keychain only after the controller accepted it, and a
 * locked keychain means "password needed" with nothing sent. The first runs against the run's shared
 * keychain (Plugboard's service, under an account named after the controller's random id); the second
 * needs a keyring of its own that it can find locked.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { keyringHome, startKeychainSession, type KeychainSessionOptions } from './keychain-session';
import { sharedKeychainBus } from './shared-keychain';

const root = path.resolve(import.meta.dirname, '../..');
const child = path.join(import.meta.dirname, 'fixtures', 'credentials-child.ts');
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-credentials-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runChild(mode: string, bus: string, home: string): Promise<Record<string, unknown>> {
  const env = { ...process.env, ...keyringHome(home), DBUS_SESSION_BUS_ADDRESS: bus };
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, mode], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) return reject(new Error(`child printed no result.\nstdout: ${out}\nstderr: ${err}`));
      resolve(JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>);
    });
  });
}

/** Run `mode` against a keychain session of its own on `home`, in the given condition. */
async function inOwnSession(mode: string, home: string, options: KeychainSessionOptions) {
  const session = await startKeychainSession(home, options);
  try {
    return await runChild(mode, session.bus, home);
  } finally {
    await session.stop();
  }
}

it("a new password for Plugboard's own user goes to the real keychain after the unit took it, and a refusal leaves it", async () => {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  const result = await runChild('own-password', sharedKeychainBus(), home);
  expect(result).toEqual({
    warning: null,
    afterChange: 'n3w-admin-pw',
    refused: expect.any(String),
    afterRefusal: 'n3w-admin-pw',
    restarted: 'online',
    where: { where: 'keychain' },
  });
});

it('a locked keychain is password-needed with nothing sent; a remembered password is kept for this run and says why', async () => {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  // A first session creates the login keyring on disk; the second finds it locked.
  await inOwnSession('own-password', home, { keyring: 'unlocked' });
  const result = await inOwnSession('locked', home, { keyring: 'locked' });
  expect(result.problem).toMatch(
    /needs the password of admin for Bench A: it is not available here \(no keychain, a locked one/,
  );
  expect(result.requestsBefore).toBe(0);
  expect(result.results).toEqual([
    {
      id: expect.any(String),
      name: 'Bench A',
      ok: true,
      message: expect.stringMatching(
        /^The keychain did not take it \(.*locked.*\), so it is kept until Plugboard stops\.$/,
      ),
    },
  ]);
  expect(result.where).toEqual({ where: 'session' });
});
