/**
 * Signing in on the JSON API: a password gives a session token that acts as the account (its role, its
 * scope) on the JSON API and the remote link, until it is signed out, revoked or expired; failures are
 * 401, then 429 with Retry-After and a sentence saying until when.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src-main/core/index';
import { connectRemoteCore } from '../../src-main/link';
import { signIn as signInRoute } from '../../src-main/serve/api-sign-in';
import { parseTokens, type Token } from '../../src-main/serve/tokens';
import { FakeClock } from '../core/fake-clock';
import { addController, emulator, newCore } from '../core/harness';
import { apiContext, ApiServices } from './api-services';

const PASSWORD = 'a long enough password';
const SECRET = 'ci-secret-0123456789abcdef';
let dir: string;
const services = new ApiServices();
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-sign-in-'));
});
afterEach(async () => {
  await services.close();
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: { code: string; message: string }; [key: string]: unknown };
}

function send(
  origin: string,
  path: string,
  options: { method?: string; token?: string; body?: unknown } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      new URL(path, origin),
      {
        method: options.method ?? 'GET',
        headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

const signIn = (origin: string, name: string, password: string) =>
  send(origin, '/api/v1/sign-in', { method: 'POST', body: { name, password } });

async function service(tokens: Token[] = []) {
  const records = await services.records(dir);
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 9));
  const h = newCore({ records, clock });
  const admin = h.core.handlersAs({ door: 'cli', who: 'root', role: 'admin' });
  await admin['accounts/add']({ name: 'ada', role: 'observer', scope: { kind: 'all' }, password: PASSWORD });
  const scope = { kind: 'some' as const, tags: ['rack-7'], controllers: [], outlets: [] };
  await admin['accounts/add']({
    name: 'bob',
    displayName: 'Bob B.',
    role: 'operator',
    scope,
    password: PASSWORD,
  });
  const { origin } = await services.listen(h.core, { tokens });
  return { h, clock, origin, admin, scope };
}

describe('sign-in on the JSON API', () => {
  it('gives a session that acts as the account with its role and scope, until signed out', async () => {
    const { h, origin, scope } = await service();
    const signed = await signIn(origin, 'Bob', PASSWORD);
    expect(signed.status).toBe(200);
    expect(signed.headers['cache-control']).toBe('no-store');
    expect(signed.body).toMatchObject({
      token: expect.stringMatching(/^pbs_[\w-]{43}$/),
      expiresAt: Date.UTC(2026, 0, 5, 9) + SESSION_IDLE_MS,
      account: { name: 'bob', displayName: 'Bob B.', role: 'operator', scope },
    });
    const token = signed.body.token as string;
    expect((await send(origin, '/api/v1/controllers', { token })).status).toBe(200);
    const seen: unknown[] = [];
    const handlersAs = h.core.handlersAs.bind(h.core);
    h.core.handlersAs = (caller) => (seen.push(caller), handlersAs(caller));
    await send(origin, '/api/v1/controllers', { token });
    expect(seen).toEqual([{ door: 'json-api', who: 'bob', role: 'operator', scope }]);

    expect((await send(origin, '/api/v1/sign-out', { method: 'POST', token })).body).toEqual({
      signedOut: true,
    });
    const after = await send(origin, '/api/v1/controllers', { token });
    expect(after.status).toBe(401);
    expect(after.body.error!.message).toMatch(/needs a token or a session/);
    expect((await send(origin, '/api/v1/sign-out', { method: 'POST', token })).status).toBe(401);
  });

  it("refuses an observer's switch in the Core's words, naming the account", async () => {
    const { h, origin } = await service();
    await addController(h, await emulator(), { name: 'Bench A' });
    const token = (await signIn(origin, 'ada', PASSWORD)).body.token as string;
    const refused = await send(origin, '/api/v1/controllers/bench%20a/outlets/1', {
      method: 'POST',
      token,
      body: { action: 'on' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error!.message).toBe('ada is an observer: it may read, not switch outlets.');
  });

  it('a session expires after 12 idle hours', async () => {
    const { clock, origin } = await service();
    const token = (await signIn(origin, 'ada', PASSWORD)).body.token as string;
    await clock.advance(SESSION_IDLE_MS - 60_000);
    expect((await send(origin, '/api/v1/controllers', { token })).status).toBe(200);
    await clock.advance(SESSION_IDLE_MS);
    expect((await send(origin, '/api/v1/controllers', { token })).status).toBe(401);
  });

  it('a wrong password is 401; repeated failures 429 with Retry-After and until when', async () => {
    const { origin } = await service();
    const wrong = await signIn(origin, 'ada', 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toMatchObject({
      code: 'AUTH_FAILED',
      message: 'The name or the password is wrong.',
    });
    for (let i = 0; i < 4; i++) await signIn(origin, 'ada', 'not the password');
    const held = await signIn(origin, 'ada', PASSWORD);
    expect(held.status).toBe(429);
    expect(held.headers['retry-after']).toBe('1');
    expect(held.body.error!.message).toBe(
      'Too many failed sign-ins for this name: wait until 09:00:01 UTC before trying again.',
    );
    expect((await signIn(origin, 'ada', 7 as unknown as string)).status).toBe(400);
  });

  it('a disabled account is told so only with its right password', async () => {
    const { origin, admin } = await service();
    await admin['accounts/setDisabled']({ name: 'ada', disabled: true });
    const right = await signIn(origin, 'ada', PASSWORD);
    expect(right.status).toBe(403);
    expect(right.body.error!.message).toBe('The account "ada" is disabled.');
    expect((await signIn(origin, 'ada', 'not the password')).status).toBe(401);
  });

  it("works beside the service's tokens, and a revoked session is refused", async () => {
    const tokens = parseTokens(`ci[operator]:${SECRET}\n`, 'tokens') as Token[];
    const { origin, admin } = await service(tokens);
    expect((await send(origin, '/api/v1/controllers', { token: SECRET })).status).toBe(200);
    const token = (await signIn(origin, 'ada', PASSWORD)).body.token as string;
    expect((await send(origin, '/api/v1/controllers', { token })).status).toBe(200);
    expect(await admin['accounts/revoke']({ name: 'ada' })).toEqual({ sessions: 1 });
    expect((await send(origin, '/api/v1/controllers', { token })).status).toBe(401);
  });

  it('a session opens the remote link as the account, with its role', async () => {
    const { origin } = await service();
    const token = (await signIn(origin, 'ada', PASSWORD)).body.token as string;
    const link = await connectRemoteCore(origin, { token });
    try {
      const handlers = link.handlersAs({ door: 'window', who: 'mallory' });
      expect(await handlers['controllers/list']({})).toEqual([]);
      await expect(handlers['accounts/list']({})).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/^ada is an observer: it may read, not see the accounts\.$/),
      });
    } finally {
      await link.close();
    }
    await expect(connectRemoteCore(origin, { token: token + 'x' })).rejects.toMatchObject({
      code: 'AUTH_FAILED',
    });
  });

  it('a link opened with a session ends at its next call once the session is revoked', async () => {
    const { origin, admin } = await service();
    const token = (await signIn(origin, 'ada', PASSWORD)).body.token as string;
    const link = await connectRemoteCore(origin, { token });
    try {
      const handlers = link.handlersAs({ door: 'cli', who: 'ada' });
      expect(await handlers['controllers/list']({})).toEqual([]);
      await admin['accounts/revoke']({ name: 'ada' });
      const ended = await handlers['controllers/list']({}).then(
        () => null,
        (error: unknown) => error,
      );
      expect(ended).toMatchObject({
        code: 'AUTH_FAILED',
        message:
          'The session ended (signed out, revoked, expired, or its account disabled); nothing was done.',
      });
    } finally {
      await link.close();
    }
  });

  it('takes a password over plain HTTP only from this machine', async () => {
    const { h } = await service();
    const context = apiContext(h.core, { spec: { name: 'api', host: '0.0.0.0', port: 0 } });
    const from = (address: string) =>
      Object.assign(Readable.from([JSON.stringify({ name: 'ada', password: PASSWORD })]), {
        socket: { remoteAddress: address },
      }) as unknown as IncomingMessage;
    const answered: unknown[] = [];
    const response = {
      writeHead: () => response,
      end: (body: unknown) => answered.push(body),
    } as unknown as ServerResponse;
    await expect(signInRoute(context, from('::ffff:10.0.0.5'), response)).rejects.toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message:
        'Sign in over HTTPS: this listener is plain HTTP, so only a client on the service’s machine may send a password to it.',
    });
    expect(answered).toEqual([]);
    await signInRoute(context, from('::ffff:127.0.0.1'), response);
    expect(answered).toHaveLength(1);
  });
});
