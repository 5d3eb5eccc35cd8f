/**
 * The built desktop app under the Electron stand-in signs in to a lab through the lab's REAL OpenID
 * provider, as a person does it in the window: "Connect to a lab" with the service's address and the
 * fingerprint it printed (the built `plugboard serve --oidc-*` over HTTPS, oidc-provider on 127.0.0.1:
 * test/e2e/lab-oidc.ts), then "Sign in with <label>". The app hands the provider's start to the system
 * browser (the stand-in records `shell.openExternal`); a Chromium context of its own plays that browser:
 * login and consent at the provider, back to the desk's loopback receiver, whose page says signed in. The
 * window then shows the lab signed in as the person the provider's groups map to, with the lab's
 * controllers; a switch is allowed inside the mapped tag and refused outside it in the Core's sentence.
 *
 * Where the session may be: in the OS keychain only (the stand-in's real Secret Service), read back
 * after the app quit; never in config.json, the window's storage or page, or an address anyone opened.
 * A second run is signed in from the keychain without a browser.
 *
 * And the tray's question for a lab: a favourite of the lab's critical outlet, clicked in the tray, is
 * asked in the window naming the lab; confirmed there, the lab's Core switches it as the window's call.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabSummary } from '../../src-preload/model';
import { cleanUp } from '../core/harness';
import { LABEL, startOidcLabService, type OidcLabService } from '../e2e/lab-oidc';
import { cleanUpServe } from '../serve/built-serve';
import type { MenuItemView } from './standin/recorders';
import {
  APP_TIMEOUT,
  type DesktopApp,
  eventually,
  exitOf,
  repoRoot,
  startDesktopApp,
  trayItem,
  until,
} from './desktop-app';

/** bench-a's outlet 4 is critical: the tray asks the window before switching it off. */
const CRITICAL = 4;

/** Every secret the app's keychain holds under Plugboard, read in a session of its own with the same HOME. */
function keychainOf(home: string): Promise<{ account: string; password: string }[]> {
  const read =
    "import('keytar').then(async (k) => process.stdout.write(JSON.stringify(await (k.default ?? k).findCredentials('Plugboard'))))";
  const script = `echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$0" -e "$1"`;
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script, process.execPath, read], {
    cwd: repoRoot,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      try {
        resolve(JSON.parse(out) as { account: string; password: string }[]);
      } catch {
        reject(new Error(`Reading the keychain failed (${code}): ${out}${err}`));
      }
    }),
  );
}

describe('The desktop app signing in to a lab through its OpenID provider', () => {
  let home: string;
  let configDir: string;
  let lab: OidcLabService;
  let app: DesktopApp;
  let page: Page;
  let browserContext: BrowserContext;
  let labId: string;
  /** Every address the system browser asked for, and what the window ever kept or showed. */
  const browserAsked: string[] = [];
  const windowSeen: string[] = [];

  beforeAll(async () => {
    lab = await startOidcLabService({ critical: [CRITICAL] });
    home = await mkdtemp(join(tmpdir(), 'plugboard-desktop-oidc-'));
    configDir = join(home, 'plugboard-config');
    app = await startDesktopApp({ home, configDir });
    page = await app.page();
  }, 120_000);

  afterAll(async () => {
    await browserContext?.close().catch(() => undefined);
    await app?.close();
    await lab?.provider.close();
    await cleanUpServe();
    await cleanUp();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** What the window keeps and shows: its storage, its address and its whole page. */
  async function recordWindow(): Promise<void> {
    windowSeen.push(
      page.url(),
      await page.evaluate(() =>
        JSON.stringify({
          local: { ...localStorage },
          session: { ...sessionStorage },
          cookie: document.cookie,
        }),
      ),
      await page.content(),
    );
  }

  /** A call through the window's `window.plugboard.labs.call`: the lab's own Result. */
  function labCall(name: string, input: unknown) {
    return page.evaluate(([l, n, i]) => window.plugboard.labs.call({ lab: l, name: n, input: i } as never), [
      labId,
      name,
      input,
    ] as const);
  }

  it('connects in the window, signs in at the provider in the system browser, and works as the mapped person', async () => {
    const nav = page.getByRole('navigation', { name: 'Controllers and pages' });
    await nav.getByRole('button', { name: 'Connect to a lab' }).click({ timeout: APP_TIMEOUT });
    const form = page.getByRole('form', { name: 'Connect to a lab' });
    await form.getByLabel('Service address').fill(lab.origin);
    await form.getByLabel('Certificate fingerprint').fill(lab.fingerprint);
    await form.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('button', { name: `Sign in with ${LABEL}` }).click({ timeout: APP_TIMEOUT });
    await page.getByRole('status').getByText(`Waiting for you to sign in with ${LABEL}`).waitFor();

    // The app handed the provider's start to the system browser: the service's start for a desk.
    const [opened] = await until(async () => {
      const urls = (await app.state()).openedExternally;
      return urls.length > 0 ? urls : null;
    }, 'the app to open the system browser');
    const start = new URL(opened!);
    expect(start.origin + start.pathname).toBe(`${lab.origin}/api/v1/oidc/start`);
    expect(start.searchParams.get('client')).toBe('desk');
    const redirect = new URL(start.searchParams.get('redirect')!);
    expect(redirect.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(start.searchParams.get('challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The system browser: a context of its own (no storage shared with the window), trusting the lab.
    browserContext = await page.context().browser()!.newContext({ ignoreHTTPSErrors: true });
    const browser = await browserContext.newPage();
    browser.on('request', (request) => browserAsked.push(request.url()));
    await browser.goto(opened!);
    await browser.locator('input[name=login]').fill('carol');
    await browser.locator('input[name=password]').fill('any password at all');
    const atLogin = browser.url();
    await browser.getByRole('button', { name: 'Sign-in' }).click();
    await browser.waitForURL((url) => url.href !== atLogin);
    if (new URL(browser.url()).origin === lab.provider.issuer)
      await browser.getByRole('button', { name: 'Continue' }).click();
    await browser.waitForURL((url) => url.origin === redirect.origin && url.pathname === redirect.pathname);
    await expect
      .poll(() => browser.locator('body').innerText())
      .toContain('Signed in to Plugboard as Carol Jones (operator). You may close this tab.');

    // The window follows: the lab signed in as the mapped person, its controllers online.
    const header = page.locator('header[aria-label^="Lab "]');
    await header.getByText('Signed in as Carol Jones (carol), operator of tag rack-7').waitFor({
      timeout: APP_TIMEOUT,
    });
    for (const name of ['bench-a', 'bench-b'])
      await nav.getByRole('tab', { name: new RegExp(`^${name} online`) }).waitFor({ timeout: APP_TIMEOUT });
    const listed = await page.evaluate(() => window.plugboard.labs.list({}));
    expect(listed).toMatchObject({ ok: true, value: [{ status: 'online', account: { who: 'carol' } }] });
    labId = (listed as { value: LabSummary[] }).value[0]!.id;

    // Inside the mapped tag the window's switch goes through; outside it the lab's Core refuses, and the
    // window shows its sentence on the outlet's row.
    const device = lab.units.rack7.device;
    expect(device.outlet(0).physicalState).toBe(true);
    await nav.getByRole('tab', { name: /^bench-a online/ }).click();
    await page.getByRole('switch', { name: /^Power of outlet 1\b/ }).click({ timeout: APP_TIMEOUT });
    await eventually(() => device.outlet(0).physicalState).toBe(false);
    await nav.getByRole('tab', { name: /^bench-b online/ }).click();
    await page.getByRole('switch', { name: /^Power of outlet 2\b/ }).click({ timeout: APP_TIMEOUT });
    await page
      .getByText(
        'carol (operator of tag rack-7) may not switch outlets: outlet 2 on bench-b is outside its scope.',
      )
      .waitFor({ timeout: APP_TIMEOUT });
    // The lab's log: carol switched bench-a's outlet through the window.
    const entries = (await labCall('activity/list', {
      controllerId: lab.controllers.rack7.id,
      outlet: 1,
    })) as {
      value?: { action: string; source: string; who: string | null }[];
    };
    expect(entries.value?.find((e) => e.action.startsWith('off'))).toMatchObject({
      source: 'window',
      who: 'carol',
    });
    expect(lab.units.other.device.outlet(1).physicalState).toBe(true);
    await recordWindow();
  });

  it('asks in the window, naming the lab, before the tray switches off the lab’s critical outlet', async () => {
    await page.evaluate(
      ([lab, controllerId, outlet]) =>
        window.plugboard.settings.set({ trayFavourites: [{ lab, controllerId, outlet }] }),
      [labId, lab.controllers.rack7.id, CRITICAL] as const,
    );
    const item = await until(async () => {
      const scope = trayItem(((await app.state()).tray?.menu ?? []) as MenuItemView[], /bench-a › /);
      return scope?.enabled && scope.checked ? scope : null;
    }, 'an enabled, checked tray item for the lab’s critical outlet');
    expect(item.sublabel).toBe('Critical: asks in the window before switching off');
    await app.clickTray(item.id!);

    const question = page.getByRole('dialog');
    await question
      .getByRole('heading', { name: /^The tray asks to switch off critical outlets on bench-a in / })
      .waitFor({ timeout: APP_TIMEOUT });
    const [{ name: labName }] = (
      (await page.evaluate(() => window.plugboard.labs.list({}))) as {
        value: LabSummary[];
      }
    ).value as [LabSummary];
    expect(await question.getByRole('heading').innerText()).toBe(
      `The tray asks to switch off critical outlets on bench-a in ${labName}`,
    );
    const device = lab.units.rack7.device;
    // Nothing switched while the window asks.
    expect(device.outlet(CRITICAL - 1).physicalState).toBe(true);
    await question.getByRole('checkbox').check();
    await question.getByRole('button', { name: 'Switch off' }).click();
    await eventually(() => device.outlet(CRITICAL - 1).physicalState).toBe(false);
    // The lab's log: carol switched it, through the window (the window made the confirmed call).
    await eventually(async () => {
      const entries = (await labCall('activity/list', {
        controllerId: lab.controllers.rack7.id,
        outlet: CRITICAL,
      })) as { ok: boolean; value?: { action: string; source: string; who: string | null }[] };
      const off = entries.value?.find((e) => e.action.startsWith('off'));
      return off && { source: off.source, who: off.who };
    }).toEqual({ source: 'window', who: 'carol' });
    await recordWindow();
  });

  it('keeps the session in the keychain only, and a second run is signed in from it without a browser', async () => {
    await app.clickTray('quit');
    await app.quitted;
    await app.release();
    expect(await exitOf(app)).toBe(0);
    await app.close();

    const kept = (await keychainOf(home)).filter((c) => c.account.startsWith('service-session:'));
    expect(kept.map((c) => c.account)).toEqual([`service-session:${lab.origin} ${lab.fingerprint}`]);
    const session = kept[0]!.password;
    expect(session).toMatch(/^pbs_/);
    const config = await readFile(join(configDir, 'config.json'), 'utf8');
    expect(config).toContain(lab.origin);
    expect(config).not.toContain(session);
    expect(config).not.toContain('pbs_');
    expect(windowSeen.length).toBe(6);
    for (const seen of windowSeen) expect(seen).not.toContain(session);
    expect(browserAsked.length).toBeGreaterThan(3);
    expect(browserAsked.filter((url) => url.includes(session))).toEqual([]);
    expect(lab.service.stdout() + lab.service.stderr()).not.toContain(session);

    app = await startDesktopApp({ home, configDir });
    page = await app.page();
    await eventually(async () =>
      page.evaluate(() => window.plugboard.labs.list({}).then((r) => (r.ok ? r.value[0]?.status : null))),
    ).toBe('online');
    expect((await app.state()).openedExternally).toEqual([]);
  });
});
