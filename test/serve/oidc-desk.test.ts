/**
 * The desk's side of signing in through a provider (link/provider-sign-in.ts) where no provider is
 * needed: a service without one is refused with a sentence before any browser opens; the caller's abort
 * stops the wait and closes the loopback receiver; a receiver answers only its own path, and the start
 * address it hands the browser carries a loopback redirect and the S256 challenge.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { signInWithProvider } from '../../src-main/link/provider-sign-in';
import { parseOidc, type OidcConfig } from '../../src-main/serve/oidc-options';
import { startOidc } from '../../src-main/serve/oidc-service';
import { newCore } from '../core/harness';
import { ApiServices } from './api-services';

let dir: string;
const services = new ApiServices();
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-oidc-desk-'));
});
afterEach(async () => {
  await services.close();
  await rm(dir, { recursive: true, force: true });
});

/** A service's api listener, with a provider (never reached in these tests) or without. */
async function service(withProvider: boolean): Promise<string> {
  const records = await services.records(dir);
  const h = newCore({ records });
  let oidc = null;
  if (withProvider) {
    await writeFile(join(dir, 'secret'), 'secret', { mode: 0o600 });
    const config = (await parseOidc(
      {
        'oidc-issuer': 'http://127.0.0.1:9/never-asked',
        'oidc-client-id': 'plugboard',
        'oidc-client-secret-file': join(dir, 'secret'),
        'oidc-role': ['ops=operator'],
      },
      {},
    )) as OidcConfig;
    oidc = startOidc(config, [], null);
  }
  return (await services.listen(h.core, { oidc })).origin;
}

it('a service without a provider is refused with a sentence before any browser opens', async () => {
  const url = await service(false);
  let asked = false;
  await expect(
    signInWithProvider({ url }, async () => {
      asked = true;
    }),
  ).rejects.toMatchObject({
    code: 'NOT_FOUND',
    message: `The lab service at ${url} offers no sign-in through an identity provider.`,
  });
  expect(asked).toBe(false);
});

it("the caller's abort ends the wait and closes the receiver, which answered only its own path", async () => {
  const url = await service(true);
  const abort = new AbortController();
  let start!: URL;
  const signing = signInWithProvider(
    { url },
    async (address) => {
      start = new URL(address);
      const redirect = new URL(start.searchParams.get('redirect')!);
      // Another path on the receiver's port is not the receiver.
      const stranger = await fetch(new URL('/plugboard-sign-in/guess?code=x', redirect));
      expect(stranger.status).toBe(404);
      abort.abort();
    },
    { signal: abort.signal },
  );
  await expect(signing).rejects.toMatchObject({ code: 'CANCELLED', message: 'The sign-in was cancelled.' });
  expect(start.origin + start.pathname).toBe(`${url}/api/v1/oidc/start`);
  expect(start.searchParams.get('client')).toBe('desk');
  expect(start.searchParams.get('challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const redirect = start.searchParams.get('redirect')!;
  expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/plugboard-sign-in\/[A-Za-z0-9_-]{22}$/);
  await expect(fetch(`${redirect}?code=late`)).rejects.toThrow();
});

it('a provider that cannot be reached is said to the desk at once, through its receiver', async () => {
  const url = await service(true);
  const signing = signInWithProvider({ url }, async (address) => {
    // The browser follows the service's redirect back to the receiver; opening returns at once.
    void fetch(address)
      .then((tab) => tab.text())
      .catch(() => undefined);
  });
  await expect(signing).rejects.toMatchObject({
    code: 'AUTH_FAILED',
    message: expect.stringMatching(
      /^The identity provider at http:\/\/127\.0\.0\.1:9\/never-asked could not be reached or answered oddly \(.+\)\. Try again in a moment;/,
    ),
  });
});
