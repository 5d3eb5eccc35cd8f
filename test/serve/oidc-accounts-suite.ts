/**
 * Provider accounts in a real lab store, the same on both engines (oidc-parts.test.ts: SQLite;
 * oidc-accounts-postgres.system.test.ts: PostgreSQL): keyed by issuer and subject, never taking over an
 * account of the same name, refreshed at each sign-in, and refused (their sessions ended) once no group
 * maps to a role.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openLabRecords, type LabRecords, type ProviderIdentity } from '../../src-main/core/index';
import { FakeClock } from '../core/fake-clock';
import { newCore } from '../core/harness';

/** `env`: the lab store's environment (PLUGBOARD_DATABASE_URL for PostgreSQL); `dir`: a scratch folder. */
export function providerAccountsSuite(env: () => Promise<NodeJS.ProcessEnv>, dir: () => string): void {
  const opened: LabRecords[] = [];
  afterEach(async () => {
    for (const records of opened.splice(0)) await records.store.close().catch(() => undefined);
  });

  describe('provider accounts', () => {
    const identity = (subject: string, more: Partial<ProviderIdentity> = {}): ProviderIdentity => ({
      issuer: 'https://sso.example.org',
      subject,
      preferredUsername: 'ada',
      email: null,
      displayName: 'Ada L.',
      groups: ['lab'],
      groupsClaim: 'groups',
      grant: { role: 'operator', scope: { kind: 'all' } },
      ...more,
    });

    async function accounts() {
      const records = await openLabRecords(dir(), '0.0.0-test', () => undefined, Date.now(), await env());
      opened.push(records);
      const h = newCore({ records, clock: new FakeClock(Date.UTC(2026, 0, 5, 9)) });
      return h.core.accounts!;
    }

    it('never take over an account of the same name: the name is numbered', async () => {
      const store = await accounts();
      await store.add({
        name: 'ada',
        role: 'admin',
        scope: { kind: 'all' },
        password: 'a long enough password',
      });
      const first = await store.providerSignIn(identity('s-1'), '127.0.0.1', 'json-api');
      expect(first).toMatchObject({ name: 'ada-2', role: 'operator', displayName: 'Ada L.' });
      const other = await store.providerSignIn(identity('s-2'), '127.0.0.1', 'json-api');
      expect(other.name).toBe('ada-3');
      // The same person again, renamed and with a new role: the same account, refreshed.
      const again = await store.providerSignIn(
        identity('s-1', {
          preferredUsername: 'lovelace',
          grant: { role: 'observer', scope: { kind: 'all' } },
        }),
        '127.0.0.1',
        'json-api',
      );
      expect(again).toMatchObject({ name: 'ada-2', role: 'observer' });
      const listed = await store.list();
      expect(listed.map((a) => [a.name, a.role, a.hasPassword])).toEqual([
        ['ada', 'admin', true],
        ['ada-2', 'observer', false],
        ['ada-3', 'operator', false],
      ]);
    });

    it('a person who lost every mapped group is refused, and their sessions end', async () => {
      const store = await accounts();
      await store.providerSignIn(identity('s-1'), '127.0.0.1', 'json-api');
      const session = await store.openSession('ada', '127.0.0.1', 'json-api');
      expect(await store.session(session.token)).not.toBeNull();
      await expect(
        store.providerSignIn(identity('s-1', { grant: null, groups: ['visitors'] }), '127.0.0.1', 'json-api'),
      ).rejects.toThrow(
        'ada may not sign in to this lab: none of their groups ("visitors") is given a role here.',
      );
      expect(await store.session(session.token)).toBeNull();
    });
  });
}
