/**
 * Issue 16 item 4: a restart without a keychain (memory secrets: a new Core on the same settings, without
 * the secrets) must not poll with an empty password, must show `password_needed` (not a wrong password),
 * and one prompt per user fixes every controller that takes the password.
 */
import { afterEach, expect, it } from 'vitest';
import type { CallResult, ControllerSummary } from '../../../src-preload/contract';
import { MemorySecretStore } from '../../../src-main/secrets';
import { keychainError } from '../../../src-main/secrets/keychain-errors';
import { addController, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

it('a restart without the secrets sends nothing, shows password-needed, and one prompt fixes every controller that takes it', async () => {
  const emus = await Promise.all([emulator(), emulator(), emulator({ password: 'other-pw' })]);
  const first = newCore();
  const saved: ControllerSummary[] = [];
  saved.push(await addController(first, emus[0]!, { name: 'Bench A' }));
  saved.push(await addController(first, emus[1]!, { name: 'Bench B' }));
  saved.push(await addController(first, emus[2]!, { name: 'Bench C', password: 'other-pw' }));
  await first.core.dispose();
  for (const emu of emus) emu.device.stats.reset();

  // The restart: same settings file, and the secrets are gone (no keychain).
  const h = newCore({ store: first.store, secrets: new MemorySecretStore() });
  await h.core.ready;
  for (const c of saved) {
    const state = await until(h, c.id, (s) => s.status === 'password_needed');
    expect(state.problem).toMatchObject({
      code: 'AUTH_FAILED',
      detail: { passwordNeeded: true, user: 'admin' },
    });
    expect(state.problem?.message).toMatch(
      new RegExp(`needs the password of admin for ${c.name}.*Nothing was sent`),
    );
  }
  // Not one request reached a controller: nothing was sent with an empty password.
  for (const emu of emus) expect(emu.device.stats.log).toEqual([]);
  // Not announced as a wrong password.
  expect(h.notices).toEqual([]);
  expect(await h.ok('controllers/secretWhere', { controllerId: saved[0]!.id })).toEqual({ where: 'missing' });

  const answer = await h.ok<CallResult<'controllers/providePassword'>>('controllers/providePassword', {
    user: 'admin',
    password: '1234',
    remember: true,
  });
  expect(answer.results.map((r) => [r.name, r.ok])).toEqual([
    ['Bench A', true],
    ['Bench B', true],
    ['Bench C', false],
  ]);
  expect(answer.results[0]!.message).toMatch(/no keychain here, so it is kept until Plugboard stops/);
  expect(answer.results[2]!.message).toBe(
    'Bench C did not accept this password for admin; it still needs one.',
  );
  await until(h, saved[0]!.id, (s) => s.status === 'online');
  await until(h, saved[1]!.id, (s) => s.status === 'online');
  expect(h.state(saved[2]!.id)?.status).toBe('password_needed');
  expect(await h.ok('controllers/secretWhere', { controllerId: saved[0]!.id })).toEqual({ where: 'session' });

  // The one that refused gets its own password, for it alone.
  const again = await h.ok<CallResult<'controllers/providePassword'>>('controllers/providePassword', {
    user: 'admin',
    password: 'other-pw',
    ids: [saved[2]!.id],
    remember: false,
  });
  expect(again.results).toEqual([{ id: saved[2]!.id, name: 'Bench C', ok: true, message: null }]);
  await until(h, saved[2]!.id, (s) => s.status === 'online');
  // A switch works with the given password.
  await h.ok('outlets/set', { controllerId: saved[0]!.id, outlets: [2], on: false });
  expect(emus[0]!.device.outlet(1).state).toBe(false);
});

it('a keychain that cannot be read is password-needed too, and nothing is sent', async () => {
  const emu = await emulator();
  const first = newCore();
  const c = await addController(first, emu, { name: 'Bench A' });
  await first.core.dispose();
  emu.device.stats.reset();
  const locked = new MemorySecretStore();
  locked.get = () =>
    Promise.reject(keychainError('read', new Error('Cannot create an item in a locked collection')));
  const h = newCore({ store: first.store, secrets: locked });
  const state = await until(h, c.id, (s) => s.status === 'password_needed');
  expect(state.problem?.message).toMatch(/the system keychain cannot be read now/);
  expect(emu.device.stats.log).toEqual([]);
});

it('refuses a prompt for a user no controller needs', async () => {
  const h = newCore();
  const result = await h.call('controllers/providePassword', {
    user: 'nobody',
    password: 'x',
    remember: false,
  });
  expect(result).toMatchObject({
    ok: false,
    error: { code: 'BAD_INPUT', message: 'No controller that logs in as nobody needs a password.' },
  });
});
