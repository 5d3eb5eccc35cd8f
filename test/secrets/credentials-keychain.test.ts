/**
 * Issue 16 items 4 and 13 against a real Secret Service (gnome-keyring in a private dbus-run-session,
 * files in a temporary HOME): a new password for Plugboard's own user reaches the keychain only after
 * the controller accepted it, and a locked keychain means "password needed" with nothing sent.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

// Each case starts a D-Bus session, a keyring and a Node child; allow for a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const root = path.resolve(import.meta.dirname, '../..');
const child = path.join(import.meta.dirname, 'fixtures', 'credentials-child.ts');
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-credentials-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runChild(
  mode: string,
  keyring: 'unlocked' | 'locked',
  home: string,
): Promise<Record<string, unknown>> {
  const node = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(child)} ${mode}`;
  const start =
    keyring === 'unlocked'
      ? 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; '
      : 'gnome-keyring-daemon --components=secrets >/dev/null; ';
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), DISPLAY: '' };
  return new Promise((resolve, reject) => {
    const proc = spawn('dbus-run-session', ['--', 'sh', '-c', start + node], {
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

it("a new password for Plugboard's own user goes to the real keychain after the unit took it, and a refusal leaves it", async () => {
  const result = await runChild('own-password', 'unlocked', mkdtempSync(path.join(scratch, 'home-')));
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
  await runChild('own-password', 'unlocked', home);
  const result = await runChild('locked', 'locked', home);
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
