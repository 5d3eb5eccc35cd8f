/**
 * The desk's window against a real lab, in Chromium: the built web shell (`plugboard web`, on a config
 * folder of its own, opened at its per-run token address) is the desk; a built `plugboard serve` with
 * accounts over HTTPS is the lab. A person connects to the lab by its address and printed fingerprint,
 * signs in in the window, switches the lab's outlets (reaching the lab's unit, never the desk) and sees
 * the unit's outside changes pushed; the lab going away and coming back is followed by itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator } from '../core/harness';
import {
  cleanUpServe,
  cliBuilt,
  savedBench,
  scratchDir,
  serveBuilt,
  webBuilt,
  type SavedBench,
  type ServeProcess,
} from '../serve/built-serve';
import { assertRendererBuilt } from './harness';
import { openChromium } from './chromium';
import { freePort, loopbackCertificate } from './loopback-tls';
import { eventually, UI_TIMEOUT } from './ui';

const PASSWORD = 'a long enough password';
/** What every session of the lab service looks like. */
const SESSION = /pbs_[\w-]{8,}/;
/** A backstop only: a lab's service restarting and the desk's backoff (at most 30 s) finding it. */
const COMEBACK_TIMEOUT = 120_000;

describe("the desk's window on a real lab, in Chromium", () => {
  let bench: SavedBench;
  let service: ServeProcess;
  let serveArgs: string[];
  let origin: string;
  let fingerprint: string;
  let labEnv: NodeJS.ProcessEnv;
  let deskDir: string;
  let desk: ServeProcess;
  let deskUrl: string;
  let context: BrowserContext;
  let page: Page;
  let browser: Awaited<ReturnType<typeof openChromium>>;
  let labId: string;
  /** Every address the page asked for (documents, scripts, fetches, sockets). */
  const requested: string[] = [];
  /** The page's console errors and uncaught errors. */
  const errors: string[] = [];

  /** An outlet's tile on the Overview of the section shown. */
  function outletTile(controller: string, number: number) {
    return page
      .getByRole('list', { name: `Outlets of ${controller}` })
      .getByRole('button', { name: new RegExp(`^${number} `) });
  }

  async function startService(): Promise<void> {
    service = serveBuilt(serveArgs, { CREDENTIALS_DIRECTORY: bench.credentials });
    [, origin, fingerprint] = (await service.line(
      /^api: (https:\/\/127\.0\.0\.1:\d+)\/api\/v1\/controllers \(TLS certificate SHA-256 ([0-9A-F:]+)\)/,
    )) as unknown as [string, string, string];
    await service.line(/^Ready\.$/);
  }

  beforeAll(async () => {
    assertRendererBuilt();
    bench = await savedBench();
    const { cert, key } = await loopbackCertificate(bench.scratch);
    // One port for both runs of the service: the desk knows the lab by its address.
    serveArgs = [
      ['--listen', `api=127.0.0.1:${await freePort()}`],
      ['--tls-cert', cert, '--tls-key', key, '--config-dir', bench.configDir],
    ].flat();
    await startService();
    labEnv = { PLUGBOARD_CONFIG_DIR: bench.configDir };
    for (const [name, role] of [
      ['alice', 'operator'],
      ['carol', 'observer'],
    ]) {
      const added = await cliBuilt(
        ['accounts', 'add', name!, '--role', role!, '--password-stdin'],
        labEnv,
        `${PASSWORD}\n`,
      );
      expect(added.code, added.stderr).toBe(0);
    }
    deskDir = scratchDir('plugboard-desk-');
    desk = webBuilt([], { PLUGBOARD_CONFIG_DIR: deskDir });
    deskUrl = (await desk.line(/^Plugboard web shell: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/))[1]!;
    browser = await openChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      // Chromium asks every site for /favicon.ico; that miss says nothing about the window.
      if (message.type() !== 'error' || message.location().url.endsWith('/favicon.ico')) return;
      errors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    page.on('websocket', (socket) => requested.push(socket.url()));
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await cleanUpServe();
  });

  it('connects by address and fingerprint, signs in in the window, and shows the lab beside this computer', async () => {
    // This computer's own controller, added in the window.
    const own = await emulator();
    await page.goto(deskUrl);
    await page.getByRole('button', { name: 'Connect to a lab' }).click({ timeout: UI_TIMEOUT });
    const added = await page.evaluate(
      (url) =>
        window.plugboard.controllers.add({
          url,
          name: 'desk-bench',
          auth: { kind: 'digest', user: 'admin', password: '1234' },
        }),
      own.url,
    );
    expect(added).toMatchObject({ ok: true });
    const form = page.getByRole('form', { name: 'Connect to a lab' });
    await form.getByLabel('Service address').fill(origin);
    // Another certificate's fingerprint: the desk does not attach, and says why.
    const other = fingerprint.replace(/^[0-9A-F]{2}/, (pair) => (pair === '00' ? '01' : '00'));
    await form.getByLabel('Certificate fingerprint').fill(other);
    await form.getByRole('button', { name: 'Connect' }).click();
    await form
      .getByText(
        `The certificate of the Plugboard service at ${origin} is not the one pinned for it (it shows ${fingerprint}); nothing was sent.`,
      )
      .waitFor({ timeout: UI_TIMEOUT });
    expect(await page.evaluate(() => window.plugboard.labs.list({}))).toEqual({ ok: true, value: [] });
    await form.getByLabel('Certificate fingerprint').fill(fingerprint);
    await form.getByRole('button', { name: 'Connect' }).click();
    const signIn = page.getByRole('form', { name: /^Sign in to / });
    await signIn.waitFor({ timeout: UI_TIMEOUT });
    // The lab's own section, signed out, under this computer's.
    const nav = page.getByRole('navigation', { name: 'Controllers and pages' });
    await nav
      .locator('section[data-core^="lab-"]')
      .getByRole('heading')
      .getByText('signed out')
      .waitFor({ timeout: UI_TIMEOUT });
    await signIn.getByLabel('Name').fill('alice');
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    const header = page.getByLabel(/^Lab /);
    await header.getByText('Signed in as alice, operator of everything').waitFor({ timeout: UI_TIMEOUT });
    // The lab's controller in the lab's section, this computer's own still in its own.
    await outletTile('bench-a', 1).waitFor({ timeout: UI_TIMEOUT });
    const labs = await page.evaluate(() => window.plugboard.labs.list({}));
    expect(labs).toMatchObject({ ok: true, value: [{ status: 'online', account: { who: 'alice' } }] });
    labId = labs.ok ? labs.value[0]!.id : '';
    expect(labId).toMatch(/^lab-[0-9a-f]{8}$/);
    const sections = page.getByRole('navigation', { name: 'Controllers and pages' });
    await sections
      .locator('section[data-core="local"]')
      .getByText('desk-bench')
      .waitFor({ timeout: UI_TIMEOUT });
    await sections
      .locator(`section[data-core="${labId}"]`)
      .getByText('bench-a')
      .waitFor({ timeout: UI_TIMEOUT });
  });

  it("switches the lab's unit from the lab's section, and shows the unit's outside change pushed", async () => {
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const five = outletTile('bench-a', 5);
    expect(await five.getAttribute('aria-pressed')).toBe('false');
    await five.click();
    await eventually(() => bench.emu.device.outlet(4).physicalState).toBe(true);
    await eventually(() => five.getAttribute('aria-pressed')).toBe('true');
    // Outside Plugboard, at the unit: the lab sees it, the desk's window shows it without a reload.
    bench.emu.device.setOutlet(5, { state: true });
    await eventually(() => outletTile('bench-a', 6).getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
  });

  it("keeps a lab outlet's favourite in the desk's settings, and a reload comes back to the same place", async () => {
    const place = `#/${labId}/${bench.controller.id}/outlets`;
    await page.evaluate((hash) => (location.hash = hash), place);
    const row = page.getByRole('listitem', { name: 'Outlet 2: Outlet 2', exact: true });
    await row.waitFor({ timeout: UI_TIMEOUT });
    // The web shell's page has no tray: its rows offer no star (the desktop app's do); the favourite
    // goes where the star saves it, this computer's settings, with the lab's id.
    expect(await row.getByRole('button', { name: /to the tray$/ }).count()).toBe(0);
    const favourite = { controllerId: bench.controller.id, outlet: 2, lab: labId };
    const saved = await page.evaluate(
      (ref) => window.plugboard.settings.set({ trayFavourites: [ref] }),
      favourite,
    );
    expect(saved).toMatchObject({ ok: true, value: { trayFavourites: [favourite] } });
    const deskConfig = JSON.parse(readFileSync(path.join(deskDir, 'config.json'), 'utf8')) as {
      settings?: { trayFavourites?: unknown };
    };
    expect(deskConfig.settings?.trayFavourites).toEqual([favourite]);
    const labSettings = await page.evaluate(
      (lab) => window.plugboard.labs.call({ lab, name: 'settings/get', input: {} }),
      labId,
    );
    expect(labSettings).toMatchObject({ ok: true, value: { trayFavourites: [] } });

    await page.reload();
    await page.waitForURL((url) => url.hash === place, { timeout: UI_TIMEOUT });
    await page
      .getByRole('listitem', { name: 'Outlet 2: Outlet 2', exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    await page
      .getByRole('tablist', { name: 'Sections of bench-a' })
      .getByRole('tab', { name: 'Outlets', exact: true })
      .and(page.locator('[aria-selected="true"]'))
      .waitFor({ timeout: UI_TIMEOUT });
  });

  it(
    'says the lab cannot be reached, shows last-known states and no switch, and comes back by itself',
    async () => {
      await page.evaluate((hash) => (location.hash = hash), `#/${labId}/overview`);
      await outletTile('bench-a', 5).waitFor({ timeout: UI_TIMEOUT });
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      service.child.kill('SIGTERM');
      expect((await service.exit).code).toBe(0);
      const lastKnown = page.getByRole('region', { name: /, last known$/ });
      await lastKnown.waitFor({ timeout: UI_TIMEOUT });
      await lastKnown
        .getByRole('status')
        .getByText(/^\S+ cannot be reached \(last seen .+\): what shows is what was last known/)
        .waitFor({ timeout: UI_TIMEOUT });
      await lastKnown.getByText('on, last known').first().waitFor({ timeout: UI_TIMEOUT });
      const switches = page.getByRole('main').getByRole('switch');
      expect(await switches.count()).toBeGreaterThan(0);
      for (const one of await switches.all()) expect(await one.isDisabled()).toBe(true);
      expect(await page.getByRole('list', { name: 'Outlets of bench-a' }).count()).toBe(0);

      await startService();
      await outletTile('bench-a', 5).waitFor({ timeout: COMEBACK_TIMEOUT });
      expect(await lastKnown.count()).toBe(0);
      await eventually(() => page.evaluate(() => window.plugboard.labs.list({}))).toMatchObject({
        value: [{ status: 'online' }],
      });
      // Pushed to the page as it was: nothing reloaded it.
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
        true,
      );
    },
    COMEBACK_TIMEOUT + 60_000,
  );

  it('never puts the session in the page, its storage, its addresses or the desk config folder', async () => {
    expect(await page.content()).not.toMatch(SESSION);
    const storage = await page.evaluate(() =>
      JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
    );
    expect(storage).not.toMatch(SESSION);
    expect(requested.length).toBeGreaterThan(3);
    expect(requested.filter((url) => SESSION.test(url))).toEqual([]);
    for (const file of readdirSync(deskDir, { recursive: true, withFileTypes: true }))
      if (file.isFile())
        expect(readFileSync(path.join(file.parentPath, file.name), 'latin1'), file.name).not.toMatch(SESSION);
    expect(desk.stdout() + desk.stderr()).not.toMatch(SESSION);
    // What the desk keeps of the lab: where it is and whose certificate, nothing to sign in with.
    const kept = JSON.parse(readFileSync(path.join(deskDir, 'config.json'), 'utf8')) as { labs?: unknown };
    expect(kept.labs).toMatchObject([{ id: labId, addresses: [origin], fingerprints: [fingerprint] }]);
    expect(errors).toEqual([]);
  });

  it("refuses an observer's switch with the Core's sentence; a revoked session goes back to sign-in", async () => {
    await page.getByLabel(/^Lab /).getByRole('button', { name: 'Sign out' }).click();
    const signIn = page.getByRole('form', { name: /^Sign in to / });
    await signIn.getByLabel('Name').fill('carol', { timeout: UI_TIMEOUT });
    await signIn.getByLabel('Password').fill(PASSWORD);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel(/^Lab /).getByText('Signed in as carol').waitFor({ timeout: UI_TIMEOUT });
    const seven = outletTile('bench-a', 7);
    await seven.click({ timeout: UI_TIMEOUT });
    await page
      .getByRole('alert')
      .getByText('carol is an observer: it may read, not switch outlets.')
      .waitFor({ timeout: UI_TIMEOUT });
    expect(bench.emu.device.outlet(6).physicalState).toBe(false);

    // An administrator ends carol's sessions at the lab: the desk's section goes back to sign-in, saying so.
    const revoked = await cliBuilt(['accounts', 'revoke', 'carol'], labEnv);
    expect(revoked.code, revoked.stderr).toBe(0);
    const again = page.getByRole('form', { name: /^Sign in to / });
    await again.waitFor({ timeout: UI_TIMEOUT });
    await page
      .getByText(/^The lab \S+ no longer accepts this computer's session: it expired, was revoked/)
      .waitFor({ timeout: UI_TIMEOUT });
    // The lab's sentence alone: nothing about a controller's password.
    expect(await page.getByRole('main').innerText()).not.toContain('The controller did not accept');
  });
});
