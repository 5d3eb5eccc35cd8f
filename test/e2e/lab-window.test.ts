/**
 * The window served to the lab network, in Chromium, by a real built `plugboard serve --web-window` over
 * HTTPS with accounts: people sign in on its sign-in page, see the same controllers, and the Core's rules
 * answer each as themselves (a reservation names its holder to the other; an observer may only look); a
 * tab without a session goes to sign-in, a revoked one is shut out, and the session is never a cookie
 * nor in any address the browser asks the service for.
 *
 * The service's certificate is self-signed (made here, for 127.0.0.1). Each person's context is told to
 * accept it (`ignoreHTTPSErrors`, which Playwright sets per context) and may reach nothing but the
 * service: every request to another origin is aborted, so what the context trusts is that one origin.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanUpServe,
  cliBuilt,
  savedBench,
  serveBuilt,
  type SavedBench,
  type ServeProcess,
} from '../serve/built-serve';
import { assertRendererBuilt } from './harness';
import { openChromium } from './chromium';
import { eventually, UI_TIMEOUT, waitForStatus } from './ui';

const PASSWORD = 'a long enough password';

interface Person {
  context: BrowserContext;
  page: Page;
  /** Every address the page asked the service for (documents, scripts, fetches, the socket). */
  requested: string[];
  /** Every Set-Cookie header the service answered with. */
  cookiesSet: string[];
}

describe('the lab window in Chromium, on plugboard serve over HTTPS', () => {
  let bench: SavedBench;
  let service: ServeProcess;
  let origin: string;
  let env: NodeJS.ProcessEnv;
  const people: Person[] = [];
  let browser: Awaited<ReturnType<typeof openChromium>>;

  beforeAll(async () => {
    assertRendererBuilt();
    bench = await savedBench();
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const cert = path.join(bench.scratch, 'cert.pem');
    const key = path.join(bench.scratch, 'key.pem');
    writeFileSync(cert, pems.cert, { mode: 0o600 });
    writeFileSync(key, pems.private, { mode: 0o600 });
    service = serveBuilt(
      ['--listen', 'api=127.0.0.1:0', '--tls-cert', cert, '--tls-key', key, '--web-window'].concat([
        '--config-dir',
        bench.configDir,
      ]),
      { CREDENTIALS_DIRECTORY: bench.credentials },
    );
    origin = (await service.line(/^web window: (https:\/\/127\.0\.0\.1:\d+)\/ /))[1]!;
    await service.line(/^Ready\.$/);
    env = { PLUGBOARD_CONFIG_DIR: bench.configDir };
    for (const [name, role] of [
      ['alice', 'operator'],
      ['bob', 'operator'],
      ['carol', 'observer'],
    ]) {
      const added = await cliBuilt(
        ['accounts', 'add', name!, '--role', role!, '--password-stdin'],
        env,
        `${PASSWORD}\n`,
      );
      expect(added.code, added.stderr).toBe(0);
    }
    browser = await openChromium();
  }, 120_000);

  afterAll(async () => {
    for (const person of people) await person.context.close().catch(() => undefined);
    await browser?.close();
    await cleanUpServe();
  });

  async function newPerson(): Promise<Person> {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 800 },
    });
    await context.route(
      (url) => url.origin !== origin,
      (route) => route.abort(),
    );
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('websocket', (socket) => requested.push(socket.url()));
    const cookiesSet: string[] = [];
    page.on('response', (response) => {
      const header = response.headers()['set-cookie'];
      if (header !== undefined) cookiesSet.push(header);
    });
    const person = { context, page, requested, cookiesSet };
    people.push(person);
    return person;
  }

  async function signIn(person: Person, name: string): Promise<string> {
    const { page } = person;
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/sign-in`, { timeout: UI_TIMEOUT });
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/#/local/overview`, { timeout: UI_TIMEOUT });
    await waitForStatus(page, 'bench-a', 'online', 30_000);
    return (await page.evaluate(() => sessionStorage.getItem('plugboard.session')))!;
  }

  it('sends a tab without a session to the sign-in page, and says what a wrong password is', async () => {
    const { page } = await newPerson();
    await page.goto(`${origin}/#/local/overview`);
    await page.waitForURL(`${origin}/sign-in`, { timeout: UI_TIMEOUT });
    await page.getByLabel('Name').fill('alice');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: UI_TIMEOUT })
      .toBe(
        'The name or the password is wrong. Check both and sign in again; repeated failures are slowed and then locked for 15 minutes.',
      );
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    // A session the service does not know (ended, or never was): its socket is refused, and the tab
    // learns why from the service and goes to sign in, keeping nothing.
    await page.evaluate(() => sessionStorage.setItem('plugboard.session', 'pbs_ended-long-ago'));
    await page.goto(`${origin}/#/local/overview`);
    await page.waitForURL(`${origin}/sign-in`, { timeout: UI_TIMEOUT });
    expect(await page.evaluate(() => sessionStorage.getItem('plugboard.session'))).toBeNull();
  });

  it("two people see the same controllers; one's reservation refuses the other, naming the holder", async () => {
    const alice = await newPerson();
    const bob = await newPerson();
    const aliceSession = await signIn(alice, 'alice');
    const bobSession = await signIn(bob, 'bob');
    expect(aliceSession).toMatch(/^pbs_/);
    expect(bobSession).not.toBe(aliceSession);
    const controllers = await Promise.all(
      [alice, bob].map((p) => p.page.evaluate(() => window.plugboard.controllers.list({}))),
    );
    expect(controllers[0]).toEqual(controllers[1]);
    const id = bench.controller.id;

    const taken = await alice.page.evaluate(
      (controllerId) =>
        window.plugboard.reservations.take({
          target: { kind: 'outlet', controllerId, outlet: 3 },
          reason: 'flashing firmware',
          durationMs: 3_600_000,
        }),
      id,
    );
    expect(taken).toMatchObject({ ok: true, value: { holder: 'alice' } });
    const refused = await bob.page.evaluate(
      (controllerId) => window.plugboard.outlets.set({ controllerId, outlets: [3], on: false }),
      id,
    );
    // Refused whole before anything is queued, or per outlet: either way the Core's one sentence.
    const error = refused.ok ? refused.value.failed[0]?.error : refused.error;
    expect(error?.code).toBe('RESERVED');
    expect(error?.message).toMatch(
      /^Outlet 3.* on bench-a is reserved by alice until .*: flashing firmware\.$/,
    );
    // Bob's window shows the reservation as alice's, pushed to it.
    await eventually(() => bob.page.evaluate(() => window.plugboard.reservations.list({}))).toMatchObject({
      ok: true,
      value: [{ holder: 'alice' }],
    });

    // No cookie anywhere, and the sessions never in an address the service was asked for.
    for (const person of [alice, bob]) {
      expect(await person.context.cookies()).toEqual([]);
      expect(await person.page.evaluate(() => document.cookie)).toBe('');
      expect(person.cookiesSet).toEqual([]);
      expect(person.requested.length).toBeGreaterThan(3);
      for (const secret of [aliceSession, bobSession])
        expect(person.requested.filter((url) => url.includes(secret))).toEqual([]);
    }
    expect(service.stdout() + service.stderr()).not.toContain(aliceSession);
  });

  it("refuses an observer's switch in the Core's sentence", async () => {
    const carol = await newPerson();
    await signIn(carol, 'carol');
    const refused = await carol.page.evaluate(
      (controllerId) => window.plugboard.outlets.set({ controllerId, outlets: [1], on: false }),
      bench.controller.id,
    );
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'carol is an observer: it may read, not switch outlets.' },
    });
  });

  it('a session an administrator revokes ends the window: the tab goes to sign-in', async () => {
    const bob = people[2]!;
    expect(bob.page.url()).toBe(`${origin}/#/local/overview`);
    const revoked = await cliBuilt(['accounts', 'revoke', 'bob'], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    await bob.page.waitForURL(`${origin}/sign-in`, { timeout: UI_TIMEOUT });
    expect(await bob.page.evaluate(() => sessionStorage.getItem('plugboard.session'))).toBeNull();
    // Alice's window goes on.
    expect(await people[1]!.page.evaluate(() => window.plugboard.app.info({}))).toMatchObject({ ok: true });
  });

  it('the header says who is signed in; Sign out forgets the session and the service ends it', async () => {
    const alice = people[1]!;
    const { page } = alice;
    const banner = page.getByRole('banner');
    await banner.getByText('Signed in as alice (operator)').waitFor({ timeout: UI_TIMEOUT });
    const session = (await page.evaluate(() => sessionStorage.getItem('plugboard.session')))!;
    await banner.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL(`${origin}/sign-out`, { timeout: UI_TIMEOUT });
    await page
      .getByText('You are signed out: this tab forgot its session, and the lab service ended it.')
      .waitFor({ timeout: UI_TIMEOUT });
    expect(await page.evaluate(() => sessionStorage.getItem('plugboard.session'))).toBeNull();
    const status = await page.evaluate(
      (secret) =>
        fetch('/api/v1/status', { headers: { Authorization: `Bearer ${secret}` } }).then((r) => r.status),
      session,
    );
    expect(status).toBe(401);
    expect(await alice.context.cookies()).toEqual([]);
  });

  it('stops cleanly on SIGTERM with a window still open', async () => {
    const carol = people[3]!;
    expect(await carol.page.evaluate(() => window.plugboard.app.info({}))).toMatchObject({ ok: true });
    service.child.kill('SIGTERM');
    expect((await service.exit).code).toBe(0);
    await eventually(() => carol.page.evaluate(() => window.plugboard.app.info({}).then((r) => r.ok))).toBe(
      false,
    );
  });
});
