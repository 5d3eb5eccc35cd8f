/**
 * `plugboard password USER --password-stdin` (issue 16 item 4) with the real Secret Service: a saved
 * controller whose keychain entry is gone (a new keychain, the same saved list) is refused with
 * "password needed" and nothing sent; the command checks the password, saves it, and the next command
 * works again.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { PASSWORD, unit } from './cli-fixtures';
import { inKeychainSession } from './keychain-session';

vi.setConfig({ testTimeout: 180_000 });

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

it('gives the password back to a saved controller whose keychain entry is gone', async () => {
  const e = await unit();
  const first = await inKeychainSession([
    {
      name: 'add',
      args: ['--url', e.url, '--user', 'admin', '--password-stdin', 'controllers', 'add', 'Bench A'],
      stdin: PASSWORD,
    },
  ]);
  expect(first.results.add!.code).toBe(0);
  // The same saved list with an empty keychain.
  const home = mkdtempSync(join(tmpdir(), 'plugboard-cli-password-'));
  homes.push(home);
  cpSync(first.configDir, join(home, 'plugboard'), { recursive: true });
  e.device.stats.reset();
  const { results } = await inKeychainSession(
    [
      { name: 'before', args: ['--controller', 'Bench A', 'off', '2'] },
      { name: 'wrong', args: ['password', 'admin', '--password-stdin'], stdin: 'not-it' },
      { name: 'right', args: ['password', 'admin', '--password-stdin'], stdin: PASSWORD },
      { name: 'after', args: ['--controller', 'Bench A', 'off', '2'] },
    ],
    home,
  );
  expect(results.before!.code).toBe(4);
  expect(results.before!.stderr).toMatch(/needs the password of admin for Bench A.*Nothing was sent/);
  expect(results.wrong!.code).toBe(4);
  expect(results.wrong!.stdout).toContain('Still needs it: Bench A: Bench A did not accept this password');
  expect(results.right!.code).toBe(0);
  expect(results.right!.stdout).toContain('Connected Bench A');
  expect(results.after!.code).toBe(0);
  expect(e.device.outlet(1).physicalState).toBe(false);
  expect(`${results.right!.stdout}${results.right!.stderr}`).not.toContain(PASSWORD);
});
