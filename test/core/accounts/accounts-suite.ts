/**
 * What accounts and sessions do over a lab store, the same on both engines: the SQLite fast test and the
 * PostgreSQL system test run this suite, each with its own store.
 */
import { describe, expect, it } from 'vitest';
import {
  Accounts,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  type SignInEvent,
} from '../../../src-main/core/accounts/accounts';
import { FAILURE_MEMORY_MS, LOCK_MS } from '../../../src-main/core/accounts/sign-in-limits';
import type { LabStore } from '../../../src-main/core/database/lab-store';
import { FakeClock } from '../fake-clock';
import { refusal } from './refusal';

const PASSWORD = 'correct horse battery';
const EVERYWHERE = { kind: 'all' } as const;

export function accountsSuite(open: () => Promise<LabStore>): void {
  async function setup() {
    const store = await open();
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 9, 0, 0));
    const events: SignInEvent[] = [];
    const accounts = new Accounts({ store, clock, record: (event) => events.push(event) });
    return { store, clock, events, accounts };
  }

  describe('accounts and sessions', () => {
    it('keeps an account with its role and scope, and its password only as a salted scrypt hash', async () => {
      const { store, accounts } = await setup();
      const scope = {
        kind: 'some',
        tags: ['rack-7'],
        controllers: [],
        outlets: [{ controllerId: 'c1', outlet: 3 }],
      } as const;
      await accounts.add({ name: 'Ada', displayName: 'Ada L.', role: 'operator', scope, password: PASSWORD });
      await accounts.add({ name: 'bob', role: 'observer', scope: EVERYWHERE, password: PASSWORD });
      expect(await accounts.list()).toMatchObject([
        {
          name: 'ada',
          displayName: 'Ada L.',
          role: 'operator',
          scope,
          disabled: false,
          hasPassword: true,
          sessions: 0,
        },
        { name: 'bob', displayName: 'bob', role: 'observer', scope: EVERYWHERE },
      ]);
      const rows = await store.db.selectFrom('account').select('password_hash').execute();
      const [a, b] = rows.map((row) => row.password_hash!);
      expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
      expect(a).not.toContain(PASSWORD);
      // The same password, two salts: two different hashes.
      expect(a).not.toBe(b);
      expect(
        (await refusal(accounts.add({ name: 'ADA', role: 'admin', scope: EVERYWHERE }))).message,
      ).toMatch(/already exists/);
      expect((await refusal(accounts.add({ name: 'x y', role: 'admin', scope: EVERYWHERE }))).code).toBe(
        'BAD_INPUT',
      );
      expect((await refusal(accounts.add({ name: 'z', role: 'root', scope: EVERYWHERE }))).code).toBe(
        'BAD_INPUT',
      );
      expect(
        (await refusal(accounts.add({ name: 'z', role: 'admin', scope: EVERYWHERE, password: 'short' })))
          .message,
      ).toMatch(/shorter than 12/);
    });

    it('signs in with the right password: a token whose session names the account, kept only as a hash', async () => {
      const { store, accounts, events } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      const signed = await accounts.signIn('Ada', PASSWORD, '10.0.0.5');
      expect(signed.account).toEqual({
        name: 'ada',
        displayName: 'ada',
        role: 'operator',
        scope: EVERYWHERE,
      });
      expect(await accounts.session(signed.token)).toEqual(signed.account);
      const sessions = await store.db.selectFrom('account_session').selectAll().execute();
      expect(sessions).toHaveLength(1);
      expect(JSON.stringify(sessions)).not.toContain(signed.token.slice(4));
      expect(sessions[0]).toMatchObject({ account: 'ada', address: '10.0.0.5', revoked_at: null });
      expect(await accounts.session(signed.token + 'x')).toBeNull();
      expect(events).toEqual([{ kind: 'signed in', name: 'ada', address: '10.0.0.5', door: 'json-api' }]);
      expect((await accounts.list())[0]!.sessions).toBe(1);
    });

    it('refuses a wrong password and an unknown name in the same words', async () => {
      const { accounts, events } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      const wrong = await refusal(accounts.signIn('ada', 'not the password', '10.0.0.5'));
      const unknown = await refusal(accounts.signIn('nobody', PASSWORD, '10.0.0.6'));
      expect(wrong.code).toBe('AUTH_FAILED');
      expect(unknown.message).toBe(wrong.message);
      expect(events.map((e) => [e.kind, e.name])).toEqual([
        ['sign-in refused', 'ada'],
        ['sign-in refused', 'nobody'],
      ]);
    });

    it('ends a session 12 hours after its last use, and 7 days after sign-in whatever happens', async () => {
      const { accounts, clock } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      const idle = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      await clock.advance(SESSION_IDLE_MS - 1000);
      expect(await accounts.session(idle.token)).not.toBeNull();
      await clock.advance(SESSION_IDLE_MS - 1000);
      expect(await accounts.session(idle.token)).not.toBeNull();
      await clock.advance(SESSION_IDLE_MS);
      expect(await accounts.session(idle.token)).toBeNull();

      const busy = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      for (let used = 0; used < SESSION_MAX_MS - 3600_000; used += 3600_000) {
        expect(await accounts.session(busy.token)).not.toBeNull();
        await clock.advance(3600_000);
      }
      await clock.advance(3600_000);
      expect(await accounts.session(busy.token)).toBeNull();
    });

    it('ends sessions on sign-out, revoke, disable, a new password and removal', async () => {
      const { accounts, events } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      const a = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      const b = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      expect(await accounts.signOut(a.token, '10.0.0.5')).toBe(true);
      expect(await accounts.session(a.token)).toBeNull();
      expect(await accounts.session(b.token)).not.toBeNull();
      expect(events.at(-1)).toEqual({
        kind: 'signed out',
        name: 'ada',
        address: '10.0.0.5',
        door: 'json-api',
      });
      expect(await accounts.revoke('ada')).toBe(1);
      expect(await accounts.session(b.token)).toBeNull();

      const c = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      await accounts.setDisabled('ada', true);
      expect(await accounts.session(c.token)).toBeNull();
      const disabled = await refusal(accounts.signIn('ada', PASSWORD, '10.0.0.5'));
      expect(disabled.message).toMatch(/"ada" is disabled/);
      // A stranger without the password learns nothing of it.
      expect((await refusal(accounts.signIn('ada', 'not the password', '10.0.0.5'))).message).toBe(
        'The name or the password is wrong.',
      );
      await accounts.setDisabled('ada', false);

      const d = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      await accounts.setPassword('ada', 'another long password');
      expect(await accounts.session(d.token)).toBeNull();
      expect((await refusal(accounts.signIn('ada', PASSWORD, '10.0.0.5'))).code).toBe('AUTH_FAILED');
      const e = await accounts.signIn('ada', 'another long password', '10.0.0.5');
      await accounts.remove('ada');
      expect(await accounts.session(e.token)).toBeNull();
      expect(await accounts.list()).toEqual([]);
      expect((await refusal(accounts.revoke('ada'))).code).toBe('NOT_FOUND');
    });

    it('slows failed sign-ins of a name, then locks it for 15 minutes, saying until when', async () => {
      const { accounts, clock } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      for (let i = 0; i < 4; i++) await refusal(accounts.signIn('ada', 'wrong password', '10.0.0.5'));
      // The 5th failure: the next try waits a second; meanwhile even the right password is refused.
      const fifth = await refusal(accounts.signIn('ada', 'wrong password', '10.0.0.5'));
      expect(fifth.detail).toMatchObject({ until: clock.now() + 1000, locked: false, held: 'name' });
      const early = await refusal(accounts.signIn('ada', PASSWORD, '10.0.0.5'));
      expect(early.message).toBe(
        'Too many failed sign-ins for this name: wait until 09:00:01 UTC before trying again.',
      );
      await clock.advance(1000);
      for (let i = 6; i < 10; i++) {
        const refused = await refusal(accounts.signIn('ada', 'wrong password', '10.0.0.5'));
        await clock.advance(Number(refused.detail!.until) - clock.now());
      }
      const locked = await refusal(accounts.signIn('ada', 'wrong password', '10.0.0.5'));
      expect(locked.detail).toMatchObject({ locked: true, until: clock.now() + LOCK_MS });
      expect(locked.message).toMatch(/it is locked until \d\d:\d\d:\d\d UTC\.$/);
      await clock.advance(LOCK_MS - 1000);
      expect((await refusal(accounts.signIn('ada', PASSWORD, '10.0.0.7'))).detail).toMatchObject({
        locked: true,
      });
      await clock.advance(1000);
      expect((await accounts.signIn('ada', PASSWORD, '10.0.0.7')).account.name).toBe('ada');
    });

    it('counts tries sent at once one after another: a burst cannot pass the wait', async () => {
      const { accounts } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => refusal(accounts.signIn('ada', 'wrong password', '10.0.0.5'))),
      );
      const messages = burst.map((error) => error.message);
      expect(messages.filter((m) => m === 'The name or the password is wrong.')).toHaveLength(5);
      expect(messages.filter((m) => m.startsWith('Too many failed sign-ins for this name'))).toHaveLength(5);
    });

    it('forgets ended sessions at the next sign-in, and failures long past at the next failure', async () => {
      const { store, accounts, clock } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      const out = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      await accounts.signOut(out.token, '10.0.0.5');
      await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      await clock.advance(SESSION_IDLE_MS);
      const live = await accounts.signIn('ada', PASSWORD, '10.0.0.5');
      const rows = await store.db.selectFrom('account_session').select('id_hash').execute();
      expect(rows).toHaveLength(1);
      expect(await accounts.session(live.token)).not.toBeNull();

      await refusal(accounts.signIn('old-guess', 'wrong password', '10.0.0.6'));
      await clock.advance(FAILURE_MEMORY_MS + 1);
      await refusal(accounts.signIn('new-guess', 'wrong password', '10.0.0.7'));
      const keys = (await store.db.selectFrom('sign_in_failure').select('key').execute()).map((r) => r.key);
      expect(keys.sort()).toEqual(['address:10.0.0.7', 'name:new-guess']);
    });

    it('locks a name whether or not such an account exists', async () => {
      const { accounts } = await setup();
      const held = [];
      for (let i = 0; i < 5; i++)
        held.push((await refusal(accounts.signIn('nobody', 'wrong password', '10.0.0.5'))).detail);
      expect(held.at(-1)).toMatchObject({ held: 'name', locked: false });
    });

    it('slows and then locks an address trying many names', async () => {
      const { accounts, clock } = await setup();
      await accounts.add({ name: 'ada', role: 'operator', scope: EVERYWHERE, password: PASSWORD });
      // 20 failures are free; the 21st makes the next try wait.
      for (let i = 0; i < 21; i++) await refusal(accounts.signIn(`guess${i}`, 'wrong password', '10.0.0.9'));
      const early = await refusal(accounts.signIn('ada', PASSWORD, '10.0.0.9'));
      expect(early.message).toMatch(/^Too many failed sign-ins for your address: wait until/);
      // Another address is not held.
      expect((await accounts.signIn('ada', PASSWORD, '10.0.0.5')).account.name).toBe('ada');
      for (let i = 21; i < 30; i++) {
        await clock.advance(16_000);
        await refusal(accounts.signIn(`guess${i}`, 'wrong password', '10.0.0.9'));
      }
      expect((await refusal(accounts.signIn('ada', PASSWORD, '10.0.0.9'))).message).toMatch(
        /your address: it is locked until/,
      );
    });
  });
}
