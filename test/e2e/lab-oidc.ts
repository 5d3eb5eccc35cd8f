/**
 * A lab whose window people sign in to through a REAL OpenID provider, for the browser tests: the built
 * `plugboard serve --web-window --oidc-*` over HTTPS (a self-signed certificate made here for
 * 127.0.0.1) with two saved controllers, `bench-a` tagged rack-7 and `bench-b` untagged; oidc-provider
 * on 127.0.0.1 (test/serve/oidc-provider.ts) whose group `rack7-ops` is mapped to operators of tag
 * rack-7; and, per person, a Chromium context that trusts the service's certificate and may reach the
 * service and the provider only. Every step waits on a page, a response or a line, never on time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openSavedCore } from '../../src-main/core/saved-core';
import { controllerAccount, credentialName, MemorySecretStore } from '../../src-main/secrets';
import type { RunningEmulator } from '../../src-main/emulator';
import type { ControllerSummary } from '../../src-preload/model';
import { emulator } from '../core/harness';
import { scratchDir, serveBuilt, type ServeProcess } from '../serve/built-serve';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from '../serve/oidc-provider';
import { openChromium } from './chromium';
import { assertRendererBuilt } from './harness';
import { UI_TIMEOUT } from './ui';

export const LABEL = 'Lab SSO';

/** The service and its provider, without a browser (a desk's test brings its own). */
export interface OidcLabService {
  provider: TestProvider;
  service: ServeProcess;
  /** The service's origin, `https://127.0.0.1:PORT`. */
  origin: string;
  /** Its certificate's SHA-256 fingerprint, as it printed it for clients to pin. */
  fingerprint: string;
  controllers: { rack7: ControllerSummary; other: ControllerSummary };
  /** Their units (an emulator each). */
  units: { rack7: RunningEmulator; other: RunningEmulator };
}

export interface OidcWindowLab extends OidcLabService {
  browser: Browser;
}

/**
 * Two controllers saved as the app saves them, their passwords as systemd credentials; `critical`
 * outlets of bench-a marked critical.
 */
async function savedControllers(configDir: string, credentials: string, critical: number[]) {
  const secrets = new MemorySecretStore();
  const core = await openSavedCore({
    shell: 'test',
    version: '0.0.0-test',
    log: () => undefined,
    configDir,
    secrets,
  });
  const units: RunningEmulator[] = [];
  const add = async (name: string, tags: string[]) =>
    core.handlers['controllers/add']({
      url: units[units.push(await emulator()) - 1]!.url,
      name,
      tags,
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
  const rack7 = await add('bench-a', ['rack-7']);
  const other = await add('bench-b', []);
  for (const outlet of critical)
    await core.handlers['outlets/configure']({ controllerId: rack7.id, outlet, critical: true });
  await core.dispose();
  for (const { id } of [rack7, other]) {
    const account = controllerAccount(id);
    writeFileSync(path.join(credentials, credentialName(account)), (await secrets.get(account))!, {
      mode: 0o600,
    });
  }
  return { controllers: { rack7, other }, units: { rack7: units[0]!, other: units[1]! } };
}

export async function startOidcWindowLab(): Promise<OidcWindowLab> {
  return { ...(await startOidcLabService()), browser: await openChromium() };
}

export async function startOidcLabService(options: { critical?: number[] } = {}): Promise<OidcLabService> {
  assertRendererBuilt();
  const scratch = scratchDir();
  const configDir = path.join(scratch, 'config');
  const credentials = path.join(scratch, 'credentials');
  mkdirSync(credentials, { mode: 0o700 });
  const { controllers, units } = await savedControllers(configDir, credentials, options.critical ?? []);
  writeFileSync(path.join(credentials, 'plugboard.oidc'), `${CLIENT_SECRET}\n`, { mode: 0o600 });
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const cert = path.join(scratch, 'cert.pem');
  const key = path.join(scratch, 'key.pem');
  writeFileSync(cert, pems.cert, { mode: 0o600 });
  writeFileSync(key, pems.private, { mode: 0o600 });
  const provider = await startTestProvider({
    carol: { preferred_username: 'carol', name: 'Carol Jones', groups: ['rack7-ops'] },
    dan: { preferred_username: 'dan', name: 'Dan', groups: ['rack7-ops'] },
    eve: { preferred_username: 'eve', name: 'Eve', groups: ['visitors'] },
  });
  const service = serveBuilt(
    [
      ['--listen', 'api=127.0.0.1:0', '--tls-cert', cert, '--tls-key', key, '--web-window'],
      ['--config-dir', configDir, '--oidc-issuer', provider.issuer, '--oidc-client-id', CLIENT_ID],
      ['--oidc-label', LABEL, '--oidc-scope', 'groups', '--oidc-role', 'rack7-ops=operator tags=rack-7'],
    ].flat(),
    { CREDENTIALS_DIRECTORY: credentials },
  );
  const origin = (await service.line(/^web window: (https:\/\/127\.0\.0\.1:\d+)\/ /))[1]!;
  const fingerprint = (await service.line(/^api: .* \(TLS certificate SHA-256 ([0-9A-F:]+)\)$/))[1]!;
  await service.line(/^Ready\.$/);
  provider.register(`${origin}/api/v1/oidc/callback`);
  return { provider, service, origin, fingerprint, controllers, units };
}

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Every address the page asked the service for (documents, scripts, fetches, the socket). */
  requested: string[];
  /** Every Set-Cookie header the service's origin answered with (the provider's are its own). */
  cookiesSet: string[];
}

/** A fresh context (no storage, no cookies) that trusts the service's certificate and reaches only the lab. */
export async function newPerson(lab: OidcWindowLab): Promise<Person> {
  const context = await lab.browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 800 },
  });
  await context.route(
    (url) => url.origin !== lab.origin && url.origin !== lab.provider.issuer,
    (route) => route.abort(),
  );
  const page = await context.newPage();
  const requested: string[] = [];
  const cookiesSet: string[] = [];
  const ours = (url: string) => new URL(url).origin === lab.origin;
  page.on('request', (request) => {
    if (ours(request.url())) requested.push(request.url());
  });
  page.on('websocket', (socket) => requested.push(socket.url()));
  page.on('response', (response) => {
    const header = response.headers()['set-cookie'];
    if (ours(response.url()) && header !== undefined) cookiesSet.push(header);
  });
  return { context, page, requested, cookiesSet };
}

/** From the window's sign-in page to the provider: "Sign in with <label>"; resolves at its login page. */
export async function toProvider(lab: OidcWindowLab, page: Page): Promise<void> {
  await page.getByRole('link', { name: `Sign in with ${LABEL}` }).click({ timeout: UI_TIMEOUT });
  await page.waitForURL((url) => url.origin === lab.provider.issuer, { timeout: UI_TIMEOUT });
}

/** At the provider: type the login (any password), then allow the client when it asks. */
export async function atProvider(lab: OidcWindowLab, page: Page, login: string): Promise<void> {
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password at all');
  const atLogin = page.url();
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.href !== atLogin, { timeout: UI_TIMEOUT });
  if (new URL(page.url()).origin === lab.provider.issuer)
    await page.getByRole('button', { name: 'Continue' }).click();
}
