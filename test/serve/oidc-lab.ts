/**
 * A lab for tests of signing in through a REAL OpenID provider: oidc-provider on 127.0.0.1
 * (oidc-provider.ts) with four people, the built `plugboard serve --oidc-*` over a saved bench with their
 * groups mapped to roles, and a real Chromium playing the person's browser. `useOidcLab()` starts it
 * before a file's tests and ends it after; the helpers drive the provider's pages, a desk's sign-in and
 * the exchange. Every step waits on a page, a response or a line, never on elapsed time.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { signInWithProvider, type ProviderSignedIn } from '../../src-main/link/provider-sign-in';
import { openChromium } from '../e2e/chromium';
import { cleanUpServe, savedBench, serveBuilt, type SavedBench } from './built-serve';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from './oidc-provider';

export interface OidcLab {
  provider: TestProvider;
  bench: SavedBench;
  /** The service's api listener, `http://127.0.0.1:PORT`. */
  api: string;
  browser: Browser;
}

/** The file's lab, filled in before its tests. */
export const lab = {} as OidcLab;

export function useOidcLab(): void {
  beforeAll(async () => {
    lab.provider = await startTestProvider({
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
    const bench = (lab.bench = await savedBench());
    writeFileSync(path.join(bench.credentials, 'plugboard.oidc'), `${CLIENT_SECRET}\n`, { mode: 0o600 });
    const service = serveBuilt(
      [
        '--listen',
        'api=127.0.0.1:0',
        '--config-dir',
        bench.configDir,
        '--oidc-issuer',
        lab.provider.issuer,
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
    lab.api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
    await service.line(/^Ready\.$/);
    expect(service.stdout()).toContain(
      `oidc: sign-in through ${lab.provider.issuer}/ ("Lab SSO") as client ${CLIENT_ID} (secret from ${bench.credentials}/plugboard.oidc); groups lab-admins: admin everywhere, rack7-ops: operator of tag rack-7, bench-ops: operator of bench-a;`,
    );
    lab.provider.register(`${lab.api}/api/v1/oidc/callback`);
    lab.browser = await openChromium();
  }, 120_000);

  afterAll(async () => {
    await lab.browser?.close();
    await lab.provider?.close();
    await cleanUpServe();
  });
}

/** A fresh browser (no cookies at the provider) whose page goes through the provider's login and consent. */
export async function freshPage(): Promise<Page> {
  const context = await lab.browser.newContext();
  return context.newPage();
}

/** At the provider: type the login (any password), then allow the client; resolves once back at Plugboard. */
export async function throughProvider(page: Page, login: string, startUrl: string): Promise<void> {
  await page.goto(startUrl);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password at all');
  const atLogin = page.url();
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.href !== atLogin);
  if (new URL(page.url()).origin === lab.provider.issuer) {
    const atConsent = page.url();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href !== atConsent);
  }
}

/** The desk's sign-in, with a page as the system browser; also what the browser was sent back with. */
export async function deskSignIn(
  login: string,
): Promise<{ signed: Promise<ProviderSignedIn>; returned: Promise<URL>; tab: () => Promise<string> }> {
  const page = await freshPage();
  let back!: (url: URL) => void;
  const returned = new Promise<URL>((resolve) => (back = resolve));
  let driving = Promise.resolve();
  const signing = signInWithProvider({ url: lab.api }, async (url) => {
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

export interface Exchanged {
  token?: string;
  account?: { name: string };
  error?: { code: string; message: string };
}

/** POST JSON to the service. */
export async function post(pathname: string, body: unknown): Promise<{ status: number; json: Exchanged }> {
  const response = await fetch(`${lab.api}${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Exchanged };
}

/** A server standing for a desk's receiver, recording what the browser brings back. */
export async function capture(): Promise<{ url: string; arrived: Promise<URLSearchParams>; server: Server }> {
  let got!: (params: URLSearchParams) => void;
  const arrived = new Promise<URLSearchParams>((resolve) => (got = resolve));
  const server = createServer((request, response) => {
    got(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/back`, arrived, server };
}

export const challengeOf = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');
