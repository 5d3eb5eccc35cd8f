/**
 * `plugboard sign-in` without a keychain (no D-Bus session here): refused with a sentence before the
 * password is sent (a session is kept in the OS keychain only, never in a file), so the service sees no
 * sign-in; and its usage errors (no --service, plain HTTP to another machine, no --password-stdin) send
 * nothing either.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { openConfStore } from '../../src-main/core/store';
import { MemorySecretStore } from '../../src-main/secrets';
import { newCore } from '../core/harness';
import { ApiServices } from '../serve/api-services';
import { cleanEnv, cli } from './run-cli';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-cli-sign-in-'));
const PASSWORD = 'ada has a long password';
const services = new ApiServices();
afterEach(() => services.close());
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('without a keychain: refused with a sentence, nothing sent to the service and nothing written', async () => {
  const dir = mkdtempSync(path.join(scratch, 'service-'));
  const records = await services.records(dir);
  const h = newCore({ store: openConfStore(dir), dataDir: dir, records, secrets: new MemorySecretStore() });
  await h.core.accounts!.add({ name: 'ada', role: 'operator', scope: { kind: 'all' }, password: PASSWORD });
  const { origin } = await services.listen(h.core);
  const config = path.join(scratch, 'client');
  const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: config, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
  const run = (args: string[]) => cli(args, { env, stdin: `${PASSWORD}\n` });

  const refused = await run(['--service', origin, 'sign-in', '--account', 'ada', '--password-stdin']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    'Signing in needs the OS keychain, where the session is kept (never in a file), and no keychain answered',
  );
  expect(refused.stderr).toContain('PLUGBOARD_SERVICE_TOKEN');

  const noService = await run(['sign-in', '--account', 'ada', '--password-stdin']);
  expect(noService.code).toBe(2);
  expect(noService.stderr).toContain("sign-in needs the lab service's address");
  // 0.0.0.0 reaches this machine, but is not a loopback name: a password would go in clear to another.
  const plain = await run([
    '--service',
    `${origin},http://0.0.0.0:1`,
    'sign-in',
    '--account',
    'ada',
    '--password-stdin',
  ]);
  expect(plain.code).toBe(2);
  expect(plain.stderr).toContain('--service http://0.0.0.0:1 is plain HTTP to another machine');
  const noStdin = await run(['--service', origin, 'sign-in', '--account', 'ada']);
  expect(noStdin.code).not.toBe(0);

  expect((await h.core.accounts!.list())[0]!.sessions).toBe(0);
  expect(h.activity().filter((e) => /sign/i.test(JSON.stringify(e)))).toEqual([]);
  expect(readdirSync(scratch)).not.toContain('client');
});
