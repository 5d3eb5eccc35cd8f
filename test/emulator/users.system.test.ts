import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json, python } from './clients';

let emu: RunningEmulator;
let api: string;
const xhr = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
const access = (...outlets: number[]): boolean[] => Array.from({ length: 8 }, (_, i) => outlets.includes(i));

beforeAll(async () => {
  emu = await startEmulator({
    cycleDelay: 0.3,
    sequenceDelay: 0.05,
    initialStates: Array(8).fill(false) as boolean[],
  });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

const create = (user: unknown) =>
  curl(`${api}/auth/users/`, { method: 'POST', headers: xhr, data: JSON.stringify(user) });

describe('auth/users/', () => {
  it('lists users without passwords', async () => {
    const answer = await curl(`${api}/auth/users/`);
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual([
      { name: 'admin', is_admin: true, is_allowed: true, outlet_access: access(0, 1, 2, 3, 4, 5, 6, 7) },
    ]);
    expect(answer.body).not.toContain('1234');
    const password = await curl(`${api}/auth/users/0/password/`);
    expect(password.status).toBe(403);
    expect(password.body).not.toContain('1234');
  });

  it('creates a user with POST (201 + Location), who can then log in', async () => {
    const answer = await create({
      name: 'tech',
      password: 'bench',
      is_admin: false,
      is_allowed: true,
      outlet_access: access(0, 1),
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.location).toEqual(['/restapi/auth/users/1/']);
    expect(json(await curl(`${api}/auth/users/1/`))).toEqual({
      name: 'tech',
      is_admin: false,
      is_allowed: true,
      outlet_access: access(0, 1),
    });
    const cred = await curl(`${api}/cred/`, { user: 'tech', password: 'bench' });
    expect(json(cred)).toMatchObject({ name: 'tech', is_admin: false, outlet_access: access(0, 1) });
  });

  it.each([
    ['a missing password', { name: 'x' }, 400],
    ['outlet_access of the wrong length', { name: 'x', password: 'p', outlet_access: [true] }, 400],
    ['a non-boolean flag', { name: 'x', password: 'p', is_admin: 'yes' }, 400],
    ['an unknown field', { name: 'x', password: 'p', shoe_size: 9 }, 400],
    ['an empty name', { name: '', password: 'p' }, 400],
    ['a name with a colon', { name: 'a:b', password: 'p' }, 400],
    ['not an object', ['x'], 400],
    ['an existing name', { name: 'ADMIN', password: 'p' }, 409],
  ])('refuses %s (%i) and creates nothing', async (_what, body, status) => {
    const before = emu.device.users().length;
    const answer = await create(body);
    expect(answer.status).toBe(status);
    expect(json(answer)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect(emu.device.users()).toHaveLength(before);
  });

  it('deletes by index and re-indexes the rest, like a unit', async () => {
    for (const name of ['u1', 'u2', 'u3']) expect((await create({ name, password: 'pw' })).status).toBe(201);
    const names = () => emu.device.users().map((u) => u.name);
    const index = names().indexOf('u1');
    expect((await curl(`${api}/auth/users/${index}/`, { method: 'DELETE', headers: xhr })).status).toBe(204);
    expect(names()).not.toContain('u1');
    // The same request again now deletes the user who moved into that index.
    expect(names()[index]).toBe('u2');
    await curl(`${api}/auth/users/${index}/`, { method: 'DELETE', headers: xhr });
    expect(names()).not.toContain('u2');
    expect((await curl(`${api}/auth/users/42/`, { method: 'DELETE', headers: xhr })).status).toBe(404);
  });

  it('never deletes or demotes the last administrator', async () => {
    const del = await curl(`${api}/auth/users/0/`, { method: 'DELETE', headers: xhr });
    expect(del.status).toBe(409);
    const demote = await curl(`${api}/auth/users/0/is_admin/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=false',
    });
    expect(demote.status).toBe(409);
    expect(emu.device.users()[0]).toMatchObject({ name: 'admin', isAdmin: true });
  });

  it('changes a password with PATCH old_password/new_password (auth/users/is_admin=true/)', async () => {
    emu.device.addUser({ name: 'boss', password: 'old-pw', isAdmin: true, outletAccess: access() });
    const wrong = await curl(`${api}/auth/users/name=boss/`, {
      method: 'PATCH',
      headers: { 'X-CSRF': 'x' },
      data: 'old_password=nope&new_password=new-pw',
    });
    expect(json(wrong)).toEqual([{ status: 409, error: 'wrong_password' }]);
    const right = await curl(`${api}/auth/users/name=boss/`, {
      method: 'PATCH',
      headers: { 'X-CSRF': 'x', Prefer: 'return=representation' },
      data: 'old_password=old-pw&new_password=new-pw',
    });
    expect(right.status).toBe(207);
    expect((await curl(`${api}/cred/`, { user: 'boss', password: 'new-pw' })).status).toBe(200);
    expect((await curl(`${api}/cred/`, { user: 'boss', password: 'old-pw' })).status).toBe(401);
  });
});

describe('what a non-admin user may do', () => {
  beforeAll(() => {
    emu.device.addUser({ name: 'operator', password: 'op', outletAccess: access(2, 3) });
  });
  const as = { user: 'operator', password: 'op' };

  it('switches and cycles the outlets outlet_access allows', async () => {
    const answer = await curl(`${api}/relay/outlets/2/state/`, {
      ...as,
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=true',
    });
    expect(answer.status).toBe(204);
    expect(emu.device.outlet(2).state).toBe(true);
    await emu.device.whenSettled();
    expect(
      (await curl(`${api}/relay/outlets/2/cycle/`, { ...as, method: 'POST', headers: { 'X-CSRF': 'x' } }))
        .status,
    ).toBe(204);
  });

  it('gets 403 for other outlets, and a per-element 403 in matrix writes', async () => {
    const single = await curl(`${api}/relay/outlets/0/state/`, {
      ...as,
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=true',
    });
    expect(single.status).toBe(403);
    expect(json(single)).toMatchObject({ error: 'forbidden' });
    expect(emu.device.outlet(0).state).toBe(false);
    const matrix = await curl(`${api}/relay/outlets/=0,3/transient_state/`, {
      ...as,
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=true',
    });
    expect(json(matrix)).toEqual([{ status: 403, error: 'forbidden' }, null]);
    const bulk = await curl(`${api}/relay/set_outlet_transient_states/`, {
      ...as,
      method: 'POST',
      headers: { 'X-CSRF': 'x', 'Content-Type': 'application/json' },
      data: '[[[3,false],[5,true]]]',
    });
    expect(bulk.status).toBe(403);
    expect(json(bulk)).toMatchObject({ error: 'forbidden', outlets: [5] });
    expect(emu.device.outlet(3).transientState).toBe(true);
  });

  it('may read outlets and config but gets 403 for scripts, users and configuration changes', async () => {
    const results = await python({
      base: emu.url,
      user: 'operator',
      password: 'op',
      requests: [
        { path: '/restapi/relay/outlets/all;/name/' },
        { path: '/restapi/config/serial/' },
        { path: '/restapi/script/threads/' },
        { path: '/restapi/auth/users/' },
        {
          method: 'POST',
          path: '/restapi/script/start/',
          headers: { 'X-CSRF': 'x', 'Content-Type': 'application/json' },
          body: '[{"user_function":"flash_a_light"}]',
        },
        {
          method: 'PUT',
          path: '/restapi/config/ssh_enabled/',
          headers: { 'X-CSRF': 'x' },
          body: 'value=true',
        },
        {
          method: 'PUT',
          path: '/restapi/relay/outlets/2/name/',
          headers: { 'X-CSRF': 'x' },
          body: 'value=Mine',
        },
        {
          method: 'POST',
          path: '/restapi/auth/users/',
          headers: xhr,
          body: '{"name":"sneaky","password":"x"}',
        },
      ],
    });
    expect(results.map((r) => r.status)).toEqual([207, 200, 403, 403, 403, 403, 403, 403]);
    expect(emu.device.threads()).toEqual([]);
    expect(emu.device.config().sshEnabled).toBe(false);
    expect(emu.device.users().map((u) => u.name)).not.toContain('sneaky');
  });

  it('does not see admin-only subtrees in the tree', async () => {
    const tree = json(
      await curl(`${api}/`, { user: 'operator', password: 'op', headers: { Range: 'dli-depth=1' } }),
    ) as object;
    expect(Object.keys(tree)).not.toContain('auth');
    expect(Object.keys(tree)).not.toContain('script');
    expect(Object.keys(tree)).toContain('relay');
  });
});
