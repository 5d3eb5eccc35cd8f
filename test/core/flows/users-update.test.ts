/**
 * Issue 16 items 5 and 13: a user's fields change in place (one request, all or nothing); a new password
 * for Plugboard's own user replaces the saved one only after the controller accepted it; deleting that
 * user needs an explicit confirmation in the Core itself.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's users (the External APIs grant on
 * real units).
 */
import { afterEach, expect, it } from 'vitest';
import { DliClient } from '../../../src-main/dli/client';
import type { RunningEmulator } from '../../../src-main/emulator';
import { controllerAccount } from '../../../src-main/secrets';
import { addController, cleanUp, emulator, keychainSecret, newCore, until } from '../harness';

afterEach(cleanUp);

/** Whether the controller lets `user` log in with `password` (a real digest login). */
async function acceptsLogin(emu: RunningEmulator, user: string, password: string): Promise<boolean> {
  const client = new DliClient({ url: emu.url, credentials: { kind: 'digest', user, password } });
  try {
    await client.outlets.list();
    return true;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

async function setUp() {
  const emu = await emulator();
  emu.device.addUser({
    name: 'bob',
    password: 'bobs-pw',
    isAdmin: false,
    outletAccess: [true, true, false, false, false, false, false, false],
  });
  const h = newCore();
  const c = await addController(h, emu, { name: 'Bench A' });
  return { emu, h, c };
}

it("changes another user's access, admin and allowed in one request, and logs what changed", async () => {
  const { emu, h, c } = await setUp();
  emu.device.stats.reset();
  const answer = await h.ok('users/update', {
    controllerId: c.id,
    name: 'bob',
    isAdmin: true,
    isAllowed: false,
    outletAccess: [false, false, true],
  });
  expect(answer).toEqual({ warning: null });
  const bob = emu.device.users().find((u) => u.name === 'bob')!;
  expect(bob).toMatchObject({
    isAdmin: true,
    isAllowed: false,
    outletAccess: [false, false, true, false, false, false, false, false],
  });
  expect(emu.device.stats.log.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
    '/restapi/auth/users/1/',
  ]);
  expect(h.activity().at(-1)).toMatchObject({
    action: 'changed user "bob": outlet access, made administrator and not allowed',
    result: 'ok',
  });
});

it("a new password for Plugboard's own user goes to the keychain after the controller took it; a refusal keeps the old one", async () => {
  const { emu, h, c } = await setUp();
  await h.ok('users/update', { controllerId: c.id, name: 'admin', password: 'new-admin-pw' });
  expect(await acceptsLogin(emu, 'admin', 'new-admin-pw')).toBe(true);
  expect(await acceptsLogin(emu, 'admin', '1234')).toBe(false);
  expect(await keychainSecret(h.secrets, controllerAccount(c.id))).toBe('new-admin-pw');
  // Still connected, now with the new password.
  emu.device.stats.reset();
  await h.ok('outlets/set', { controllerId: c.id, outlets: [1], on: false });
  expect(emu.device.outlet(0).state).toBe(false);
  await until(h, c.id, (s) => s.status === 'online');

  // The controller refuses (the last administrator may not stop being one): nothing changes.
  const refused = await h.call('users/update', {
    controllerId: c.id,
    name: 'admin',
    isAdmin: false,
    password: 'never-used',
  });
  expect(refused.ok).toBe(false);
  expect(emu.device.users().find((u) => u.name === 'admin')?.isAdmin).toBe(true);
  expect(await acceptsLogin(emu, 'admin', 'new-admin-pw')).toBe(true);
  expect(await keychainSecret(h.secrets, controllerAccount(c.id))).toBe('new-admin-pw');
});

it('says plainly when the keychain fails after the controller accepted the new password, and keeps working', async () => {
  const { emu, h, c } = await setUp();
  const { keychainError } = await import('../../../src-main/secrets/keychain-errors');
  h.secrets.set = () => Promise.reject(keychainError('store', new Error('is locked')));
  const answer = await h.ok<{ warning: string | null }>('users/update', {
    controllerId: c.id,
    name: 'admin',
    password: 'newer-pw',
  });
  expect(answer.warning).toMatch(
    /^Bench A accepted the new password for admin, but Plugboard could not save it in the keychain .*uses the new password until it stops.*System tab \(Connection\)/,
  );
  expect(await acceptsLogin(emu, 'admin', 'newer-pw')).toBe(true);
  await h.ok('outlets/set', { controllerId: c.id, outlets: [3], on: false });
  expect(emu.device.outlet(2).state).toBe(false);
  expect(await h.ok('controllers/secretWhere', { controllerId: c.id })).toEqual({ where: 'session' });
});

it("refuses to delete Plugboard's own user without the confirmation flag, saying what breaks", async () => {
  const { emu, h, c } = await setUp();
  await h.ok('users/update', { controllerId: c.id, name: 'bob', isAdmin: true });
  const refused = await h.call('users/delete', { controllerId: c.id, name: 'admin' });
  expect(refused).toMatchObject({
    ok: false,
    error: {
      code: 'BAD_INPUT',
      message:
        "Plugboard logs in to Bench A as admin: after deleting it, Plugboard can no longer reach Bench A until you give another user's password.",
      detail: { confirmOwnUser: true },
    },
  });
  expect(emu.device.users().map((u) => u.name)).toEqual(['admin', 'bob']);
  await h.ok('users/delete', { controllerId: c.id, name: 'admin', confirmOwnUser: true });
  expect(emu.device.users().map((u) => u.name)).toEqual(['bob']);
});

it("refuses to stop Plugboard's own user from logging in without the confirmation flag", async () => {
  const { emu, h, c } = await setUp();
  await h.ok('users/update', { controllerId: c.id, name: 'bob', isAdmin: true });
  const refused = await h.call('users/update', { controllerId: c.id, name: 'admin', isAllowed: false });
  expect(refused).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT', detail: { confirmOwnUser: true } },
  });
  expect(emu.device.users().find((u) => u.name === 'admin')?.isAllowed).toBe(true);
  await h.ok('users/update', { controllerId: c.id, name: 'admin', isAllowed: false, confirmOwnUser: true });
  expect(emu.device.users().find((u) => u.name === 'admin')?.isAllowed).toBe(false);
});
