/**
 * `plugboard sign-in --provider` with the real OS keychain (keychain-session.ts) against a lab service
 * over HTTPS with a pinned certificate, signing in through a REAL OpenID provider (oidc-provider on
 * 127.0.0.1) in a real Chromium that plays the system browser: `$BROWSER` is a script handing the address
 * to the test, which opens it in Chromium, as xdg-open would in a browser. The session is kept in the
 * keychain only; later `--service` commands act as the account with the role its groups map to.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { openConfStore } from '../../src-main/core/store';
import { KeytarSecretStore, MemorySecretStore } from '../../src-main/secrets';
import { parseOidc, type OidcConfig } from '../../src-main/serve/oidc-options';
import { startOidc } from '../../src-main/serve/oidc-service';
import { loadTls } from '../../src-main/serve/tls';
import { addController, emulator, newCore } from '../core/harness';
import { openChromium } from '../e2e/chromium';
import { ApiServices } from '../serve/api-services';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from '../serve/oidc-provider';
import { inKeychainSession } from './keychain-session';

vi.setConfig({ testTimeout: 120_000 });

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-cli-oidc-'));
let provider: TestProvider;
let browser: Browser;
/** Where the $BROWSER script hands the address it was asked to open. */
let opener: Server;
let opened: (url: string) => void = () => undefined;
const services = new ApiServices();

beforeAll(async () => {
  provider = await startTestProvider({
    ada: { preferred_username: 'ada', name: 'Ada Lovelace', groups: ['lab-ops'] },
  });
  browser = await openChromium();
  opener = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      response.end();
      opened(body);
    });
  });
  await new Promise<void>((resolve) => opener.listen(0, '127.0.0.1', resolve));
  const script = path.join(scratch, 'open-in-test-browser');
  writeFileSync(
    script,
    `#!/bin/sh\nexec curl -s --data-binary "$1" http://127.0.0.1:${(opener.address() as AddressInfo).port}/\n`,
  );
  chmodSync(script, 0o755);
  vi.stubEnv('BROWSER', script);
}, 120_000);

afterEach(() => services.close());

afterAll(async () => {
  vi.unstubAllEnvs();
  opener?.close();
  await browser?.close();
  await provider?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A lab service over HTTPS whose groups map `lab-ops` to operator everywhere. */
async function lab() {
  const dir = mkdtempSync(path.join(scratch, 'service-'));
  const store = await services.records(dir);
  const h = newCore({
    store: openConfStore(dir),
    dataDir: dir,
    records: store,
    secrets: new MemorySecretStore(),
  });
  await addController(h, await emulator(), { name: 'Bench A' });
  const secret = path.join(dir, 'oidc-secret');
  writeFileSync(secret, CLIENT_SECRET, { mode: 0o600 });
  const config = (await parseOidc(
    {
      'oidc-issuer': provider.issuer,
      'oidc-client-id': CLIENT_ID,
      'oidc-client-secret-file': secret,
      'oidc-role': ['lab-ops=operator'],
      'oidc-scope': ['groups'],
    },
    {},
  )) as OidcConfig;
  const tls = (await loadTls({ kind: 'self-signed' }, dir, ['127.0.0.1']))!;
  const { origin } = await services.listen(h.core, {
    tls,
    oidc: startOidc(config, await h.core.handlers['controllers/list']({}), null),
  });
  provider.register(`${origin}/api/v1/oidc/callback`);
  return { h, origin, fingerprint: tls.fingerprint256 };
}

it('signs in through the provider in the browser; the keychain keeps the session; commands act as the account', async () => {
  const { h, origin, fingerprint } = await lab();
  const service = ['--service', origin, '--service-fingerprint', fingerprint];
  // The person at the browser: the service's self-signed certificate accepted, as one would by hand.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  let driven: Promise<void> = Promise.resolve();
  opened = (url) => {
    driven = (async () => {
      await page.goto(url);
      await page.locator('input[name=login]').fill('ada');
      await page.locator('input[name=password]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('You may close this tab.').waitFor();
    })();
  };
  const { results } = await inKeychainSession([
    { name: 'in', args: [...service, 'sign-in', '--provider'] },
    { name: 'on', args: [...service, 'on', 'Bench A:3', '--wait'] },
  ]);
  await driven;
  expect(results.in!.code, results.in!.stderr).toBe(0);
  expect(results.in!.stderr).toContain(
    `Sign in through the identity provider in your browser; if none opens, open: ${origin}/api/v1/oidc/start?client=desk&redirect=http%3A%2F%2F127.0.0.1%3A`,
  );
  expect(results.in!.stdout).toContain(
    `Signed in to ${origin} as Ada Lovelace (ada, operator) through the identity provider. The session is kept in this computer's keychain`,
  );
  const keychain = new KeytarSecretStore();
  const kept = (await keychain.accounts()).filter(
    (a) => a.startsWith('service-session:') && a.includes(origin),
  );
  expect(kept).toHaveLength(1);
  const token = (await keychain.get(kept[0]!))!;
  expect(await h.core.accounts!.session(token)).toMatchObject({ name: 'ada', role: 'operator' });
  expect(`${results.in!.stdout}${results.in!.stderr}`).not.toContain(token);
  expect(results.on!.code, results.on!.stderr).toBe(0);
  expect(h.activity().find((e) => e.outlet === 3 && e.action === 'on')).toMatchObject({
    who: 'ada',
    result: 'ok',
  });
});

it('refuses --provider with --account, before any browser opens', async () => {
  const { origin, fingerprint } = await lab();
  let asked = false;
  opened = () => (asked = true);
  const { results } = await inKeychainSession([
    {
      name: 'both',
      args: [
        '--service',
        origin,
        '--service-fingerprint',
        fingerprint,
        'sign-in',
        '--provider',
        '--account',
        'ada',
      ],
    },
  ]);
  expect(results.both!.code).toBe(2);
  expect(results.both!.stderr).toContain(
    'sign-in --provider signs in through the identity provider: leave out --account',
  );
  expect(asked).toBe(false);
});
