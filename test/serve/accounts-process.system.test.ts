/**
 * People on a real `plugboard serve` (the built bin): with no administrator it says at start how to add
 * the first; `plugboard accounts add` on its machine reaches its Core through the owner-only socket; the
 * accounts then sign in over the JSON API and act with their own names and roles. Waits on the child's
 * lines, exits and answers, never on time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import { cleanUpServe, cliBuilt, savedBench, serveBuilt as serve } from './built-serve';

afterEach(cleanUpServe);

const PASSWORD = 'a long enough password';

async function post(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('accounts on plugboard serve (a real process)', () => {
  it(
    'the first administrator is added on its machine, and accounts sign in and act as themselves',
    { timeout: 120_000 },
    async () => {
      const { configDir, credentials, emu } = await savedBench();
      const service = serve(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      await service.line(
        /^accounts: no administrator yet; add the first one on this machine, as the owner of the config folder: plugboard accounts add NAME --role admin --password-stdin$/,
      );
      await service.line(/^Ready\.$/);

      const env = { PLUGBOARD_CONFIG_DIR: configDir };
      const first = await cliBuilt(
        ['accounts', 'add', 'alice', '--role', 'admin', '--password-stdin'],
        env,
        `${PASSWORD}\n`,
      );
      expect(first.stdout.trim()).toBe('Added alice (admin, everything).');
      expect(first.code).toBe(0);
      const alice = (await post(`${api}/api/v1/sign-in`, { name: 'alice', password: PASSWORD })).body
        .token as string;
      // The administrator adds the others through the service, with her session as the link's token.
      const viaService = await cliBuilt(
        ['--service', api, 'accounts', 'add', 'carol', '--role', 'observer', '--password-stdin'],
        { PLUGBOARD_CONFIG_DIR: `${configDir}-client`, PLUGBOARD_SERVICE_TOKEN: alice },
        `${PASSWORD}\n`,
      );
      expect(viaService.code).toBe(0);
      await cliBuilt(
        ['accounts', 'add', 'bob', '--role', 'operator', '--password-stdin'],
        env,
        `${PASSWORD}\n`,
      );

      const bob = (await post(`${api}/api/v1/sign-in`, { name: 'bob', password: PASSWORD })).body
        .token as string;
      const carol = (await post(`${api}/api/v1/sign-in`, { name: 'carol', password: PASSWORD })).body
        .token as string;
      await expect
        .poll(
          async () => {
            const response = await fetch(`${api}/api/v1/controllers/bench-a`, {
              headers: { Authorization: `Bearer ${bob}` },
            });
            return ((await response.json()) as { status: string }).status;
          },
          { timeout: 30_000 },
        )
        .toBe('online');
      const refused = await post(`${api}/api/v1/controllers/bench-a/outlets/3`, { action: 'off' }, carol);
      expect(refused.status).toBe(403);
      expect((refused.body.error as { message: string }).message).toBe(
        'carol is an observer: it may read, not switch outlets.',
      );
      const switched = await post(`${api}/api/v1/controllers/bench-a/outlets/3`, { action: 'off' }, bob);
      expect(switched.status).toBe(200);
      await vi.waitFor(() => expect(emu.device.outlet(2).physicalState).toBe(false), { timeout: 30_000 });

      const log = (await (
        await fetch(`${api}/api/v1/activity?limit=50`, { headers: { Authorization: `Bearer ${bob}` } })
      ).json()) as ActivityEntry[];
      expect(log.find((e) => e.outlet === 3 && e.result === 'ok')).toMatchObject({
        source: 'json-api',
        who: 'bob',
      });
      expect(
        log
          .filter((e) => e.action.startsWith('signed in from 127.0.0.1'))
          .map((e) => e.who)
          .sort(),
      ).toEqual(['alice', 'bob', 'carol']);

      const listed = await cliBuilt(['accounts', 'list', '--json'], env);
      expect(
        (JSON.parse(listed.stdout) as { name: string; sessions: number }[]).map((a) => [a.name, a.sessions]),
      ).toEqual([
        ['alice', 1],
        ['bob', 1],
        ['carol', 1],
      ]);
      service.child.kill('SIGTERM');
      expect((await service.exit).code).toBe(0);
    },
  );
});
