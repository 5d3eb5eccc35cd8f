/**
 * Signing in through a REAL OpenID provider (oidc-provider on 127.0.0.1, oidc-provider.ts) to the built
 * `plugboard serve --oidc-*`, with a real Chromium playing the person's browser: the desk's loopback
 * sign-in (link/provider-sign-in.ts) and the web window's redirect to `/sign-in#oidc=…`, the groups mapped
 * to roles and scopes that the Core then enforces on the remote link, a person in no mapped group refused
 * with a sentence (and in the activity log), a one-time code that works once, a desk's code that needs
 * its verifier, a redirect that must be loopback, and a renamed person keeping their account. Every step
 * waits on a page, a response or a line, never on elapsed time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRemoteCore } from '../../src-main/link';
import { signInWithProvider, type ProviderSignedIn } from '../../src-main/link/provider-sign-in';
import { openChromium } from '../e2e/chromium';
import { cleanUpServe, savedBench, serveBuilt, type SavedBench } from './built-serve';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from './oidc-provider';

let provider: TestProvider;
let bench: SavedBench;
let api: string;
let browser: Browser;

beforeAll(async () => {
  provider = await startTestProvider({
    ada: {
      preferred_username: 'ada',
      name: 'Ada Lovelace',
      email: 'ada@lab.example',
      groups: ['lab-admins'],
    },
    bob: { preferred_username: 'bob', name: 'Bob', groups: ['rack7-ops', 'visitors'] },
    carol: { email: 'carol@lab.example', name: 'Carol', groups: ['rack7-ops', 'bench-ops'] },
    eve: { preferred_username: 'eve', name: 'Eve', groups: ['visitors'] },
  });
  bench = await savedBench();
  writeFileSync(path.join(bench.credentials, 'plugboard.oidc'), `${CLIENT_SECRET}\n`, { mode: 0o600 });
  const service = serveBuilt(
    [
      '--listen',
      'api=127.0.0.1:0',
      '--config-dir',
      bench.configDir,
      '--oidc-issuer',
      provider.issuer,
      '--oidc-client-id',
      CLIENT_ID,
      '--oidc-label',
      'Lab SSO',
      '--oidc-scope',
      'groups',
      '--oidc-role',
      'lab-admins=admin',
      '--oidc-role',
      'rack7-ops=operator tags=rack-7',
      '--oidc-role',
      'bench-ops=operator controllers=bench-a',
    ],
    { CREDENTIALS_DIRECTORY: bench.credentials },
  );
  api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
  await service.line(/^Ready\.$/);
  expect(service.stdout()).toContain(
    `oidc: sign-in through ${provider.issuer}/ ("Lab SSO") as client ${CLIENT_ID} (secret from ${bench.credentials}/plugboard.oidc); groups lab-admins: admin everywhere, rack7-ops: operator of tag rack-7, bench-ops: operator of bench-a;`,
  );
  provider.register(`${api}/api/v1/oidc/callback`);
  browser = await openChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await cleanUpServe();
});

/** A fresh browser (no cookies at the provider) whose page goes through the provider's login and consent. */
async function freshPage(): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** At the provider: type the login (any password), then allow the client; resolves once back at Plugboard. */
async function throughProvider(page: Page, login: string, startUrl: string): Promise<void> {
  await page.goto(startUrl);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password at all');
  const atLogin = page.url();
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.href !== atLogin);
  if (new URL(page.url()).origin === provider.issuer) {
    const atConsent = page.url();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href !== atConsent);
  }
}

/** The desk's sign-in, with the page as the system browser; also what the browser was sent back with. */
async function deskSignIn(
  login: string,
): Promise<{ signed: Promise<ProviderSignedIn>; returned: Promise<URL>; tab: () => Promise<string> }> {
  const page = await freshPage();
  let back!: (url: URL) => void;
  const returned = new Promise<URL>((resolve) => (back = resolve));
  let driving = Promise.resolve();
  const signing = signInWithProvider({ url: api }, async (url) => {
    const redirect = new URL(url).searchParams.get('redirect')!;
    page.on('request', (request) => {
      if (request.url().startsWith(redirect)) back(new URL(request.url()));
    });
    // As a system browser does: opening returns at once, the person signs in meanwhile.
    driving = throughProvider(page, login, url);
  });
  // Settled once the browser has loaded the tab's answer too.
  const signed = signing.finally(() => driving);
  // What the receiver answered the tab, once the browser has loaded it.
  const tab = async () => {
    await page.waitForURL((await returned).href);
    return page.locator('body').innerText();
  };
  return { signed, returned, tab };
}

interface Exchanged {
  token?: string;
  account?: { name: string };
  error?: { code: string; message: string };
}

async function post(pathname: string, body: unknown): Promise<{ status: number; json: Exchanged }> {
  const response = await fetch(`${api}${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Exchanged };
}

/** A server standing for a desk's receiver, recording what the browser brings back. */
async function capture(): Promise<{ url: string; arrived: Promise<URLSearchParams>; server: Server }> {
  let got!: (params: URLSearchParams) => void;
  const arrived = new Promise<URLSearchParams>((resolve) => (got = resolve));
  const server = createServer((request, response) => {
    got(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/back`, arrived, server };
}

const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

describe('signing in through the identity provider', () => {
  it('the status says how to sign in, before anyone has', async () => {
    const status = (await (await fetch(`${api}/api/v1/status`)).json()) as { signIn: unknown };
    expect(status.signIn).toEqual({ password: true, provider: { label: 'Lab SSO' } });
  });

  it('a desk signs in as the role its groups map to, and the Core holds it to its scope', async () => {
    const { signed, tab } = await deskSignIn('bob');
    const bob = await signed;
    expect(bob.account).toEqual({
      name: 'bob',
      displayName: 'Bob',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] },
    });
    expect(await tab()).toBe(
      'Signed in\n\nSigned in to Plugboard as Bob (operator). You may close this tab.',
    );
    const link = await connectRemoteCore(api, { token: bob.session });
    try {
      const handlers = link.handlersAs({ door: 'cli', who: 'someone else' });
      await expect(
        handlers['outlets/set']({ controllerId: bench.controller.id, outlets: [3], on: false }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(
          /^bob \(operator of tag rack-7\) may not switch outlets: outlet 3 on bench-a is outside its scope\./,
        ),
      });
    } finally {
      await link.close();
    }
    expect(bench.emu.device.outlet(2).state).toBe(true);
  });

  it('the highest role among the groups wins, over the union of its scopes; the email names a person without a user name', async () => {
    const carol = await (await deskSignIn('carol')).signed;
    expect(carol.account).toMatchObject({
      name: 'carol',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [bench.controller.id], outlets: [] },
    });
    const link = await connectRemoteCore(api, { token: carol.session });
    try {
      const result = await link
        .handlersAs({ door: 'cli', who: 'carol' })
        ['outlets/set']({ controllerId: bench.controller.id, outlets: [3], on: false });
      expect(result.failed).toEqual([]);
    } finally {
      await link.close();
    }
    expect(bench.emu.device.outlet(2).state).toBe(false);
  });

  it('a person in no mapped group is refused with a sentence, in the tab and in the activity log', async () => {
    const { signed, tab } = await deskSignIn('eve');
    const sentence =
      'eve may not sign in to this lab: none of their groups ("visitors") is given a role here.';
    await expect(signed).rejects.toMatchObject({
      code: 'AUTH_FAILED',
      message: expect.stringContaining(sentence),
    });
    expect(await tab()).toMatch(/^Not signed in\n\neve may not sign in to this lab: /);
    const ada = await (await deskSignIn('ada')).signed;
    expect(ada.account.role).toBe('admin');
    const log = await fetch(`${api}/api/v1/activity?person=eve`, {
      headers: { Authorization: `Bearer ${ada.session}` },
    });
    const entries = (await log.json()) as {
      action: string;
      who: string;
      error: { message: string } | null;
    }[];
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: 'sign-in refused from 127.0.0.1',
        who: 'eve',
        error: expect.objectContaining({ message: sentence }),
      }),
    );
  });

  it('a one-time code works once: replayed, it is refused', async () => {
    const { signed, returned } = await deskSignIn('ada');
    await signed;
    const code = (await returned).searchParams.get('code')!;
    const replay = await post('/api/v1/oidc/exchange', {
      code,
      verifier: randomBytes(32).toString('base64url'),
    });
    expect(replay.status).toBe(401);
    expect(replay.json.error?.message).toBe(
      'This sign-in code is unknown, used already or expired (a code is good once, for a minute).',
    );
  });

  it("a desk's code needs the desk's verifier, and is spent by a wrong one", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const receiver = await capture();
    try {
      const start = `${api}/api/v1/oidc/start?client=desk&redirect=${encodeURIComponent(receiver.url)}&challenge=${challengeOf(verifier)}`;
      await throughProvider(await freshPage(), 'ada', start);
      const code = (await receiver.arrived).get('code')!;
      const without = await post('/api/v1/oidc/exchange', { code });
      expect(without.status).toBe(401);
      expect(without.json.error?.message).toMatch(
        /^This sign-in code was given to a desk, and the verifier sent with it is not that desk's/,
      );
      // Spent by the wrong try: the right verifier comes too late.
      expect((await post('/api/v1/oidc/exchange', { code, verifier })).status).toBe(401);
    } finally {
      receiver.server.close();
    }
  });

  it("a desk's redirect must be a loopback receiver", async () => {
    const challenge = challengeOf('v'.repeat(43));
    for (const redirect of [
      'http://lab-desk.example:8080/back',
      'https://127.0.0.1:8080/back',
      'http://localhost:8080/back',
      'http://127.0.0.1/back',
      'http://user@127.0.0.1:8080/back',
    ]) {
      const answer = await fetch(
        `${api}/api/v1/oidc/start?client=desk&redirect=${encodeURIComponent(redirect)}&challenge=${challenge}`,
        { redirect: 'manual' },
      );
      expect(answer.status, redirect).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
        /^Refused the redirect .*: a desk's sign-in comes back only to a receiver on its own machine/,
      );
    }
  });

  it('the web window is sent back to /sign-in#oidc=<code>, which the page exchanges for the session', async () => {
    const page = await freshPage();
    await throughProvider(page, 'carol', `${api}/api/v1/oidc/start?client=web`);
    const back = new URL(page.url());
    expect(back.origin + back.pathname).toBe(`${api}/sign-in`);
    const code = /^#oidc=([A-Za-z0-9_-]+)$/.exec(back.hash)![1]!;
    const answer = await post('/api/v1/oidc/exchange', { code });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ token: expect.stringMatching(/^pbs_/), account: { name: 'carol' } });
    const controllers = await fetch(`${api}/api/v1/controllers`, {
      headers: { Authorization: `Bearer ${answer.json.token!}` },
    });
    expect(controllers.status).toBe(200);
  });

  it('a web page that gave a challenge gets a code only its verifier exchanges', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const page = await freshPage();
    await throughProvider(
      page,
      'ada',
      `${api}/api/v1/oidc/start?client=web&challenge=${challengeOf(verifier)}`,
    );
    const code = /^#oidc=([A-Za-z0-9_-]+)$/.exec(new URL(page.url()).hash)![1]!;
    const slipped = await post('/api/v1/oidc/exchange', { code });
    expect(slipped.status).toBe(401);
    expect(slipped.json.error?.message).toMatch(/^This sign-in code was given to a page, and the verifier/);
    const second = await freshPage();
    await throughProvider(
      second,
      'ada',
      `${api}/api/v1/oidc/start?client=web&challenge=${challengeOf(verifier)}`,
    );
    const again = /^#oidc=([A-Za-z0-9_-]+)$/.exec(new URL(second.url()).hash)![1]!;
    expect((await post('/api/v1/oidc/exchange', { code: again, verifier })).status).toBe(200);
  });

  it('a refusal sends the web window back to /sign-in#oidc-error=<sentence>', async () => {
    const page = await freshPage();
    await throughProvider(page, 'eve', `${api}/api/v1/oidc/start?client=web`);
    const hash = new URL(page.url()).hash;
    expect(decodeURIComponent(hash.replace(/^#oidc-error=/, ''))).toMatch(
      /^eve may not sign in to this lab: none of their groups \("visitors"\) is given a role here\./,
    );
  });

  it('a person renamed at the provider keeps their account, with the new display name', async () => {
    provider.people.set('bob', { preferred_username: 'robert', name: 'Robert B.', groups: ['lab-admins'] });
    const robert = await (await deskSignIn('bob')).signed;
    expect(robert.account).toMatchObject({ name: 'bob', displayName: 'Robert B.', role: 'admin' });
  });
});
