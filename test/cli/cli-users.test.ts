/**
 * `plugboard user edit` and `user delete --yes`. @real-unit: the edited user logs in to the profile's
 * unit.
 */
import { expect, it } from 'vitest';
import { cli } from './run-cli';
import { PASSWORD, expectNoPassword, login, emulator } from './cli-fixtures';

it("user edit changes a user's outlets, admin, enabled and password in place", async () => {
  const e = await emulator();
  e.device.addUser({ name: 'bob', password: 'bobs-pw', isAdmin: false, outletAccess: Array(8).fill(true) });
  const edited = await cli(
    [
      '--url',
      e.url,
      '--password-stdin',
      'user',
      'edit',
      'bob',
      '--outlets',
      '3,4',
      '--admin',
      '--disabled',
      '--password-stdin',
    ],
    {
      stdin: `${PASSWORD}\nbobs-new-pw\n`,
    },
  );
  expect(edited.code).toBe(0);
  expect(edited.stdout).toContain('Changed user bob on');
  expect(e.device.users().find((u) => u.name === 'bob')).toEqual({
    name: 'bob',
    isAdmin: true,
    isAllowed: false,
    outletAccess: [false, false, true, true, false, false, false, false],
  });
  expect(edited.stdout + edited.stderr).not.toContain('bobs-new-pw');
  expectNoPassword(edited.stdout, edited.stderr);
  const enabled = await cli([...login(e), 'user', 'edit', 'bob', '--enabled', '--no-admin']);
  expect(enabled.code).toBe(0);
  expect(e.device.users().find((u) => u.name === 'bob')).toMatchObject({ isAdmin: false, isAllowed: true });
  // The new password logs in.
  const asBob = await cli([
    '--url',
    e.url,
    '--user',
    'bob',
    '--password',
    'bobs-new-pw',
    '--json',
    'outlets',
  ]);
  expect(asBob.code).toBe(0);
  // Nothing to change is a usage error.
  expect((await cli([...login(e), 'user', 'edit', 'bob'])).code).toBe(2);
});

it('user delete refuses the login user without --yes and says what breaks, as for a saved controller', async () => {
  const e = await emulator();
  e.device.addUser({ name: 'root2', password: 'root2-pw', isAdmin: true, outletAccess: Array(8).fill(true) });
  const refused = await cli([...login(e), 'user', 'delete', 'admin']);
  // The Core's refusal, the same for a saved controller: not done, the message says why (exit 1).
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /logs in to 127\.0\.0\.1:\d+ as admin: after deleting it, Plugboard can no longer reach .*add --yes/,
  );
  expect(e.device.users().map((u) => u.name)).toEqual(['admin', 'root2']);
  const done = await cli([...login(e), 'user', 'delete', 'admin', '--yes']);
  expect(done.code).toBe(0);
  expect(e.device.users().map((u) => u.name)).toEqual(['root2']);
});
