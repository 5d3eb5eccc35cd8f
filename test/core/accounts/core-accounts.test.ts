/**
 * Accounts through the Core's contract calls: only an administrator manages them (the role check before
 * the handler, as for every call), a password never comes back, and sign-ins, sign-outs and refusals
 * are in the activity log, about the lab service, with the client's address.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/core/index';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { cleanUp, newCore } from '../harness';

let dir: string;
const opened: LabRecords[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-core-accounts-'));
});
afterEach(async () => {
  await cleanUp();
  for (const records of opened.splice(0)) await records.store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

async function labCore() {
  const records = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  opened.push(records);
  return newCore({ records });
}

const PASSWORD = 'a long enough password';

describe('accounts through the Core', () => {
  it('are managed by an administrator only, each change logged as theirs, never giving a password or its hash back', async () => {
    const h = await labCore();
    const admin = h.core.handlersAs({ door: 'cli', who: 'root', role: 'admin' });
    const operator = h.core.handlersAs({ door: 'json-api', who: 'ada', role: 'operator' });
    const added = await dispatch(admin, 'accounts/add', {
      name: 'Ada',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] },
      password: PASSWORD,
    });
    expect(added).toMatchObject({ ok: true, value: { name: 'ada', role: 'operator', hasPassword: true } });
    expect(JSON.stringify(added)).not.toMatch(/scrypt|long enough/);
    const refused = await dispatch(operator, 'accounts/list', {});
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message:
          'ada is an operator: it may read, switch and reserve outlets, and run groups and sequences, not see the accounts.',
      },
    });
    expect(
      await dispatch(operator, 'accounts/setPassword', { name: 'ada', password: PASSWORD }),
    ).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(
      await dispatch(admin, 'accounts/add', { name: 'x', role: 'root', scope: { kind: 'all' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT' },
    });
    expect(await dispatch(admin, 'accounts/revoke', { name: 'ada' })).toEqual({
      ok: true,
      value: { sessions: 0 },
    });
    await dispatch(admin, 'accounts/setDisabled', { name: 'ada', disabled: true });
    await dispatch(admin, 'accounts/remove', { name: 'ada' });
    const changes = (await h.core.handlers['activity/list']({ order: 'oldest' })).map((e) => [
      e.controllerName,
      e.source,
      e.who,
      e.action,
    ]);
    expect(changes).toEqual([
      ['the lab service', 'cli', 'root', 'added account ada (operator, tag rack-7)'],
      // The operator's refused attempts are in the log too, as theirs.
      ['the lab service', 'json-api', 'ada', 'tried to see the accounts'],
      ['the lab service', 'json-api', 'ada', "tried to set accounts' passwords"],
      ['the lab service', 'cli', 'root', 'ended 0 sessions of account ada'],
      ['the lab service', 'cli', 'root', 'disabled account ada'],
      ['the lab service', 'cli', 'root', 'removed account ada'],
    ]);
  });

  it('changes an account in place as an administrator, logging what changed, and refuses the last one', async () => {
    const h = await labCore();
    const admin = h.core.handlersAs({ door: 'window', who: 'root', role: 'admin' });
    await dispatch(admin, 'accounts/add', { name: 'root', role: 'admin', scope: { kind: 'all' } });
    await dispatch(admin, 'accounts/add', {
      name: 'bob',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] },
    });
    const changed = await dispatch(admin, 'accounts/update', {
      name: 'Bob',
      displayName: 'Bob B.',
      role: 'admin',
      scope: { kind: 'all' },
    });
    expect(changed).toMatchObject({
      ok: true,
      value: { name: 'bob', displayName: 'Bob B.', role: 'admin', scope: { kind: 'all' } },
    });
    // The same again changes nothing, and logs nothing.
    await dispatch(admin, 'accounts/update', { name: 'bob', role: 'admin' });
    const bob = h.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' });
    expect(await dispatch(bob, 'accounts/update', { name: 'bob', role: 'admin' })).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: expect.stringMatching(/^bob is an operator: .*, not change accounts\.$/),
      },
    });
    await dispatch(admin, 'accounts/update', { name: 'root', role: 'observer' });
    expect(await dispatch(admin, 'accounts/update', { name: 'bob', role: 'observer' })).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message:
          'bob is the last administrator of everything: a lab keeps one, so it cannot be made an observer.',
      },
    });
    const log = (await h.core.handlers['activity/list']({ order: 'oldest' })).map((e) => [e.who, e.action]);
    expect(log.slice(2)).toEqual([
      [
        'root',
        'changed account bob: display name "bob" → "Bob B.", role operator → admin, scope tag rack-7 → everywhere',
      ],
      ['bob', 'tried to change accounts'],
      ['root', 'changed account root: role admin → observer'],
    ]);
  });

  it('signs in as the account, and the log has the sign-in, the sign-out and the refusal', async () => {
    const h = await labCore();
    const admin = h.core.handlersAs({ door: 'cli', who: 'root', role: 'admin' });
    await dispatch(admin, 'accounts/add', {
      name: 'ada',
      role: 'observer',
      scope: { kind: 'all' },
      password: PASSWORD,
    });
    const accounts = h.core.accounts!;
    const signed = await accounts.signIn('ada', PASSWORD, '192.0.2.7');
    expect(await dispatch(admin, 'accounts/list', {})).toMatchObject({
      ok: true,
      value: [{ name: 'ada', sessions: 1 }],
    });
    await accounts.signOut(signed.token, '192.0.2.7');
    await expect(accounts.signIn('ada', 'wrong password', '192.0.2.8')).rejects.toThrow(
      'The name or the password is wrong.',
    );
    const log = h.core.handlers['activity/list'];
    const entries = (await log({})).map((e) => [
      e.controllerName,
      e.source,
      e.who,
      e.action,
      e.result,
      e.error?.code ?? null,
    ]);
    expect(entries).toEqual(
      expect.arrayContaining([
        ['the lab service', 'json-api', 'ada', 'signed in from 192.0.2.7', 'ok', null],
        ['the lab service', 'json-api', 'ada', 'signed out from 192.0.2.7', 'ok', null],
        ['the lab service', 'json-api', 'ada', 'sign-in refused from 192.0.2.8', 'error', 'AUTH_FAILED'],
      ]),
    );
    expect(JSON.stringify(await log({}))).not.toContain('wrong password');
  });

  it('gives an account whose scope changed handlers of its own, not those kept for the old scope', () => {
    const h = newCore();
    const rack7 = { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] } as const;
    const ada = { door: 'json-api', who: 'ada', role: 'operator' } as const;
    const first = h.core.handlersAs({ ...ada, scope: rack7 });
    expect(h.core.handlersAs({ ...ada, scope: rack7 })).toBe(first);
    expect(h.core.handlersAs({ ...ada, scope: { ...rack7, tags: ['rack-8'] } })).not.toBe(first);
  });

  it('a Core without a lab store keeps no accounts and says so', async () => {
    const h = newCore();
    expect(h.core.accounts).toBeNull();
    expect(await h.call('accounts/list', {})).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});
