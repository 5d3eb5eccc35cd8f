/**
 * The parts of signing in through an identity provider that need no provider: the `--oidc-*` flags and
 * their sentences, the pending logins and one-time codes kept bounded in number and time (a flood of
 * starts cannot grow the service's memory), the groups mapped to the highest role, and provider accounts
 * in a SQLite lab store (oidc-accounts-suite.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLabRecords } from '../../src-main/core/index';
import { startApiListener } from '../../src-main/serve/api';
import { isLoopbackRedirect } from '../../src-main/serve/api-oidc';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { parseTokens, type Token } from '../../src-main/serve/tokens';
import {
  CODE_MS,
  challengeOf,
  MAX_PENDING,
  MAX_PENDING_PER_ADDRESS,
  OidcLogins,
  PENDING_MS,
} from '../../src-main/serve/oidc-logins';
import { parseOidc } from '../../src-main/serve/oidc-options';
import { grantOf } from '../../src-main/serve/oidc-relying-party';
import { parseServeArgs, UsageError } from '../../src-main/serve/options';
import { FakeClock } from '../core/fake-clock';
import { cleanUp, newCore } from '../core/harness';
import { providerAccountsSuite } from './oidc-accounts-suite';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-oidc-'));
});
afterEach(async () => {
  await cleanUp();
  await rm(dir, { recursive: true, force: true });
});

describe('the --oidc-* flags', () => {
  const secretFile = async (mode = 0o600) => {
    const file = join(dir, 'oidc-secret');
    await writeFile(file, 'the-secret\n', { mode });
    return file;
  };

  it('reads the issuer, client, secret file, roles and defaults', async () => {
    const file = await secretFile();
    const config = await parseServeArgs(
      [
        '--oidc-issuer',
        'https://sso.example.org/realms/lab',
        '--oidc-client-id',
        'plugboard',
        '--oidc-client-secret-file',
        file,
        '--oidc-role',
        'lab-admins=admin',
        '--oidc-role',
        'rack7-ops=operator tags=rack-7',
      ],
      {},
    );
    expect(config.oidc).toMatchObject({
      issuer: new URL('https://sso.example.org/realms/lab'),
      clientId: 'plugboard',
      clientSecret: 'the-secret',
      secretSource: file,
      label: 'sso.example.org',
      rolesClaim: 'groups',
      scopes: ['openid', 'profile', 'email'],
      roles: [
        { group: 'lab-admins', grant: { role: 'admin', written: null } },
        {
          group: 'rack7-ops',
          grant: { role: 'operator', written: { tags: ['rack-7'], controllers: [], outlets: [] } },
        },
      ],
    });
  });

  it('takes the secret from the systemd credential plugboard.oidc', async () => {
    await writeFile(join(dir, 'plugboard.oidc'), 'from-systemd\n');
    const config = await parseOidc(
      { 'oidc-issuer': 'https://sso.example.org', 'oidc-client-id': 'p', 'oidc-role': ['a=observer'] },
      { CREDENTIALS_DIRECTORY: dir },
    );
    expect(config).toMatchObject({ clientSecret: 'from-systemd', secretSource: join(dir, 'plugboard.oidc') });
  });

  it.each([
    [['--oidc-client-id', 'p'], /^--oidc-client-id needs --oidc-issuer/],
    [['--oidc-issuer', 'http://sso.example.org', '--oidc-client-id', 'p'], /must be reached over HTTPS/],
    [['--oidc-issuer', 'https://sso.example.org'], /needs --oidc-client-id/],
    [['--oidc-issuer', 'https://sso.example.org', '--oidc-client-id', 'p'], /at least one --oidc-role/],
    [
      ['--oidc-issuer', 'https://sso.example.org', '--oidc-client-id', 'p', '--oidc-role', 'ops=boss'],
      /the brackets after "ops" start with its role: observer, operator, admin/,
    ],
    [
      ['--oidc-issuer', 'https://sso.example.org', '--oidc-client-id', 'p', '--oidc-role', 'ops=admin'],
      /needs the client secret: give --oidc-client-secret-file PATH/,
    ],
  ])('refuses %j with a sentence', async (args, sentence) => {
    await expect(parseServeArgs(args, {})).rejects.toThrow(sentence);
    await expect(parseServeArgs(args, {})).rejects.toBeInstanceOf(UsageError);
  });

  it('refuses a provider without the api listener, where people sign in', async () => {
    const args = [
      '--oidc-issuer',
      'https://sso.example.org',
      '--oidc-client-id',
      'p',
      '--oidc-role',
      'a=admin',
    ];
    const env = { CREDENTIALS_DIRECTORY: dir };
    await writeFile(join(dir, 'plugboard.oidc'), 'secret');
    await expect(parseServeArgs(['--listen', 'pdudaemon', ...args], env)).rejects.toThrow(
      '--oidc-issuer signs people in on the api listener: add --listen api.',
    );
    expect((await parseServeArgs(['--listen', 'api', ...args], env)).oidc).not.toBeNull();
  });

  it('refuses a secret file others can read', async () => {
    const file = await secretFile(0o644);
    await expect(
      parseOidc(
        {
          'oidc-issuer': 'http://127.0.0.1:9000',
          'oidc-client-id': 'p',
          'oidc-client-secret-file': file,
          'oidc-role': ['a=observer'],
        },
        {},
      ),
    ).resolves.toBe(
      `--oidc-client-secret-file ${file} can be read by other users: make it private with \`chmod 600 ${file}\`.`,
    );
  });
});

describe('pending logins and one-time codes', () => {
  const checks = (state: string) => ({ verifier: 'v', state, nonce: 'n', redirectUri: 'http://x/cb' });

  it('are bounded in number, per address and overall, and forgotten after their time', async () => {
    const clock = new FakeClock(0);
    const logins = new OidcLogins(() => clock.now());
    for (let i = 0; i < MAX_PENDING_PER_ADDRESS; i++)
      logins.add({ client: { kind: 'web' }, checks: checks(`a${i}`), address: '10.0.0.1' });
    expect(() =>
      logins.add({ client: { kind: 'web' }, checks: checks('one-more'), address: '10.0.0.1' }),
    ).toThrow(
      'Too many sign-ins through the identity provider are under way from your address: try again in a few minutes.',
    );
    for (let i = 0; logins.sizes.pending < MAX_PENDING; i++)
      logins.add({ client: { kind: 'web' }, checks: checks(`b${i}`), address: `10.1.${i >> 8}.${i & 255}` });
    expect(() =>
      logins.add({ client: { kind: 'web' }, checks: checks('over'), address: '10.2.0.1' }),
    ).toThrow(/^Too many sign-ins through the identity provider are under way: /);
    expect(logins.sizes.pending).toBe(MAX_PENDING);
    await clock.advance(PENDING_MS);
    logins.add({ client: { kind: 'web' }, checks: checks('later'), address: '10.0.0.1' });
    expect(logins.sizes.pending).toBe(1);
    expect(logins.take('a0')).toBeNull();
    expect(logins.take('later')).not.toBeNull();
    expect(logins.take('later')).toBeNull();
  });

  it('a code is good once and for a minute; a desk code needs its verifier', async () => {
    const clock = new FakeClock(0);
    const logins = new OidcLogins(() => clock.now());
    const web = logins.code('ada', { kind: 'web' });
    expect(logins.redeem(web, null).account).toBe('ada');
    expect(() => logins.redeem(web, null)).toThrow(/unknown, used already or expired/);
    const late = logins.code('ada', { kind: 'web' });
    await clock.advance(CODE_MS);
    expect(() => logins.redeem(late, null)).toThrow(/unknown, used already or expired/);
    const desk = {
      kind: 'desk' as const,
      redirect: 'http://127.0.0.1:5/x',
      challenge: challengeOf('the verifier'),
    };
    const code = logins.code('ada', desk);
    expect(() => logins.redeem(code, 'another verifier')).toThrow(/not that desk's/);
    expect(() => logins.redeem(code, 'the verifier')).toThrow(/unknown, used already/);
    expect(logins.redeem(logins.code('ada', desk), 'the verifier').account).toBe('ada');
    // A web page that gave a challenge binds its code the same way.
    const page = { kind: 'web' as const, challenge: challengeOf('the page verifier') };
    expect(() => logins.redeem(logins.code('ada', page), null)).toThrow(
      "This sign-in code was given to a page, and the verifier sent with it is not that page's: the code is now spent.",
    );
    expect(logins.redeem(logins.code('ada', page), 'the page verifier').account).toBe('ada');
  });
});

it('a desk redirect is loopback only', () => {
  expect(isLoopbackRedirect('http://127.0.0.1:4711/done')).toBe(true);
  expect(isLoopbackRedirect('http://[::1]:4711/done?x=1')).toBe(true);
  for (const bad of [
    'http://127.0.0.2:4711/done',
    'http://localhost:4711/',
    'https://127.0.0.1:4711/',
    'http://127.0.0.1/',
    'http://127.0.0.1:4711@evil.example/',
    'http://127.0.0.1:4711/#x',
    'http://127.0.0.1.evil.example:4711/',
  ])
    expect(isLoopbackRedirect(bad), bad).toBe(false);
});

it('the highest role among the groups wins, over the union of its scopes', () => {
  const some = (tags: string[]) => ({ kind: 'some' as const, tags, controllers: [], outlets: [] });
  const roles = [
    { group: 'rack7', role: 'operator' as const, scope: some(['rack-7']) },
    { group: 'rack8', role: 'operator' as const, scope: some(['rack-8']) },
    { group: 'all-eyes', role: 'observer' as const, scope: { kind: 'all' as const } },
  ];
  expect(grantOf(['rack7', 'rack8', 'all-eyes'], roles)).toEqual({
    role: 'operator',
    scope: some(['rack-7', 'rack-8']),
  });
  expect(grantOf(['all-eyes', 'other'], roles)).toEqual({ role: 'observer', scope: { kind: 'all' } });
  expect(grantOf(['other'], roles)).toBeNull();
});

providerAccountsSuite(
  async () => ({}),
  () => dir,
);

it('the status says how to sign in to a client without a session, and nothing else, when tokens are needed', async () => {
  const records = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  const h = newCore({ records });
  const listener = await startApiListener({
    core: h.core,
    spec: { name: 'api', host: '127.0.0.1', port: 0 },
    allow: null,
    tokens: parseTokens('ci[operator]:ci-secret-0123456789abcdef\n', 'tokens') as Token[],
    hostNames: [],
    tls: null,
    metrics: new ServiceMetrics(),
    log: () => undefined,
  });
  try {
    const origin = /api: (http:\/\/[^/]+)\//.exec(listener.lines[0]!)![1]!;
    const anonymous = await fetch(`${origin}/api/v1/status`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ signIn: { password: true, provider: null } });
    const token = await fetch(`${origin}/api/v1/status`, {
      headers: { Authorization: 'Bearer ci-secret-0123456789abcdef' },
    });
    expect(await token.json()).toMatchObject({ role: 'leader', signIn: { password: true, provider: null } });
    const wrong = await fetch(`${origin}/api/v1/status`, {
      headers: { Authorization: 'Bearer pbs_nothing' },
    });
    expect(wrong.status).toBe(401);
  } finally {
    await listener.close(1_000);
    await records.store.close();
  }
});
