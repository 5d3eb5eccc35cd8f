/**
 * `plugboard password USER --password-stdin` with the real Secret Service: a saved controller whose
 * keychain entry is gone (the same saved list, a keychain without it) is refused with "password needed"
 * and nothing sent; the command checks the password, saves it, and the next command works again.
 */
import { expect, it } from 'vitest';
import { PASSWORD, emulator } from './cli-fixtures';
import { forgetSecrets, inKeychainSession } from './keychain-session';

it('gives the password back to a saved controller whose keychain entry is gone', async () => {
  const e = await emulator();
  const first = await inKeychainSession([
    {
      name: 'add',
      args: ['--url', e.url, '--user', 'admin', '--password-stdin', 'controllers', 'add', 'Bench A'],
      stdin: PASSWORD,
    },
  ]);
  expect(first.results.add!.code).toBe(0);
  // The same saved list with a keychain that does not have its password.
  expect(await forgetSecrets(first.configDir)).toBe(1);
  e.device.stats.reset();
  const { results } = await inKeychainSession(
    [
      { name: 'before', args: ['--controller', 'Bench A', 'off', '2'] },
      { name: 'wrong', args: ['password', 'admin', '--password-stdin'], stdin: 'not-it' },
      { name: 'right', args: ['password', 'admin', '--password-stdin'], stdin: PASSWORD },
      { name: 'after', args: ['--controller', 'Bench A', 'off', '2'] },
    ],
    first.home,
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
