/** users.update (issue 16 item 13) against the emulator: one JSON-patch request, all or nothing. */
import { expect, it } from 'vitest';
import { client, emulator, failure } from './helpers';

it('changes only the fields given, in one PATCH of the user looked up by name', async () => {
  const unit = await emulator();
  unit.device.addUser({
    name: 'erin',
    password: 'erin-pw',
    isAdmin: false,
    outletAccess: Array(8).fill(false),
  });
  const c = client(unit.url);
  await c.users.update('erin', { outletAccess: [true, false, true] });
  expect(unit.device.users().find((u) => u.name === 'erin')).toEqual({
    name: 'erin',
    isAdmin: false,
    isAllowed: true,
    outletAccess: [true, false, true, false, false, false, false, false],
  });
  await c.users.update('erin', { isAllowed: false, isAdmin: true });
  expect(unit.device.users().find((u) => u.name === 'erin')).toMatchObject({
    isAdmin: true,
    isAllowed: false,
  });
  const writes = unit.device.stats.log.filter((e) => e.method !== 'GET' && e.status !== 401);
  expect(writes.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
    'PATCH /restapi/auth/users/1/ 204',
    'PATCH /restapi/auth/users/1/ 204',
  ]);
});

it('refuses nothing to change, an unknown user and too many outlets before sending a change', async () => {
  const unit = await emulator();
  const c = client(unit.url);
  expect(await failure(c.users.update('admin', {}))).toMatchObject({
    code: 'BAD_INPUT',
    message: 'Nothing to change for user "admin".',
  });
  expect((await failure(c.users.update('nobody', { isAdmin: true }))).code).toBe('BAD_INPUT');
  expect((await failure(c.users.update('admin', { outletAccess: Array(9).fill(true) }))).message).toMatch(
    /has 8 outlets; the access list names 9/,
  );
  // The last administrator may not stop being one: the unit refuses the whole change, password too.
  expect(await failure(c.users.update('admin', { isAdmin: false, password: 'other' }))).toMatchObject({
    code: 'BAD_INPUT',
    message: expect.stringMatching(/refused to change user "admin" .*last administrator/),
  });
  expect(unit.device.users()[0]).toMatchObject({ isAdmin: true });
  expect(unit.device.stats.log.filter((e) => e.method === 'PATCH').map((e) => e.status)).toEqual([409]);
});
