/**
 * An account changed in place, and the lab's last administrator of everything, the same on both
 * engines: the SQLite fast test and the PostgreSQL system test run this suite, each with its own store.
 */
import { describe, expect, it } from 'vitest';
import { Accounts } from '../../../src-main/core/accounts/accounts';
import type { LabStore } from '../../../src-main/core/database/lab-store';
import { FakeClock } from '../fake-clock';
import { refusal } from './refusal';

const PASSWORD = 'correct horse battery';
const EVERYWHERE = { kind: 'all' } as const;
const RACK_7 = { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] } as const;

export function accountChangesSuite(open: () => Promise<LabStore>): void {
  async function setup() {
    const store = await open();
    const clock = new FakeClock(Date.UTC(2026, 10, 27, 9));
    return new Accounts({ store, clock, record: () => undefined });
  }

  describe('an account changed in place', () => {
    it('takes a new display name, role or scope, keeps what is not given, and its sessions act with them at once', async () => {
      const accounts = await setup();
      await accounts.add({ name: 'root', role: 'admin', scope: EVERYWHERE });
      await accounts.add({
        name: 'bob',
        displayName: 'Bob',
        role: 'operator',
        scope: RACK_7,
        password: PASSWORD,
      });
      const session = await accounts.signIn('bob', PASSWORD, '10.0.0.5');

      const { before, after } = await accounts.update({ name: 'BOB', role: 'admin' });
      expect(before).toEqual({ name: 'bob', displayName: 'Bob', role: 'operator', scope: RACK_7 });
      expect(after).toMatchObject({
        name: 'bob',
        displayName: 'Bob',
        role: 'admin',
        scope: RACK_7,
        sessions: 1,
      });
      expect(await accounts.session(session.token)).toMatchObject({ role: 'admin', scope: RACK_7 });

      await accounts.update({ name: 'bob', scope: EVERYWHERE, displayName: 'Bob B.' });
      expect(await accounts.session(session.token)).toEqual({
        name: 'bob',
        displayName: 'Bob B.',
        role: 'admin',
        scope: EVERYWHERE,
      });
      // An empty display name is the account's name, as when it was added without one.
      expect((await accounts.update({ name: 'bob', displayName: ' ' })).after.displayName).toBe('bob');
      expect((await refusal(accounts.update({ name: 'nobody', role: 'observer' }))).code).toBe('NOT_FOUND');
      expect((await refusal(accounts.update({ name: 'bob', role: 'root' }))).code).toBe('BAD_INPUT');
    });

    it('never takes away the last enabled administrator of everything, however it is asked', async () => {
      const accounts = await setup();
      await accounts.add({ name: 'root', role: 'admin', scope: EVERYWHERE });
      // Neither a limited administrator nor a disabled one keeps the lab administered.
      await accounts.add({ name: 'rack', role: 'admin', scope: RACK_7 });
      await accounts.add({ name: 'old', role: 'admin', scope: EVERYWHERE });
      await accounts.setDisabled('old', true);

      const demoted = await refusal(accounts.update({ name: 'root', role: 'operator' }));
      expect(demoted).toMatchObject({
        code: 'BAD_INPUT',
        message:
          'root is the last administrator of everything: a lab keeps one, so it cannot be made an operator.',
        action:
          'Make another account an administrator of everything first (plugboard accounts set NAME --role admin --everywhere, or add one).',
      });
      expect((await refusal(accounts.update({ name: 'root', scope: RACK_7 }))).message).toBe(
        'root is the last administrator of everything: a lab keeps one, so it cannot be limited to part of the lab.',
      );
      expect((await refusal(accounts.setDisabled('root', true))).message).toMatch(
        /so it cannot be disabled\.$/,
      );
      expect((await refusal(accounts.remove('root'))).message).toMatch(/so it cannot be removed\.$/);
      expect(await accounts.list()).toMatchObject([
        { name: 'old', disabled: true },
        { name: 'rack', role: 'admin', scope: RACK_7 },
        { name: 'root', role: 'admin', scope: EVERYWHERE, disabled: false },
      ]);
      // The others change freely, and the display name of the last one too.
      await accounts.update({ name: 'rack', role: 'operator' });
      await accounts.remove('old');
      await accounts.update({ name: 'root', displayName: 'The root' });

      // Two asked at once cannot both pass the check: one of two administrators stays.
      await accounts.update({ name: 'rack', role: 'admin', scope: EVERYWHERE });
      const both = await Promise.allSettled([
        accounts.update({ name: 'root', role: 'observer' }),
        accounts.setDisabled('rack', true),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const left = (await accounts.list()).filter((a) => a.role === 'admin' && !a.disabled);
      expect(left).toHaveLength(1);
      // Once there is another administrator of everything, the first may go.
      await accounts.add({ name: 'ada', role: 'admin', scope: EVERYWHERE });
      await accounts.remove(left[0]!.name);
      expect((await accounts.list()).map((a) => a.name)).not.toContain(left[0]!.name);
    });

    it('lets a lab without an administrator of everything change its other accounts', async () => {
      const accounts = await setup();
      await accounts.add({ name: 'ci', role: 'operator', scope: RACK_7 });
      await accounts.update({ name: 'ci', role: 'observer', scope: EVERYWHERE });
      await accounts.setDisabled('ci', true);
      await accounts.remove('ci');
      expect(await accounts.list()).toEqual([]);
    });
  });
}
