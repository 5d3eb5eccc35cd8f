import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ActivityEntry } from '../../src-preload/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllerSummary, testCore, type TestCore } from '../web/test-core';
import {
  assertRendererBuilt,
  launchBrowser,
  packageVersion,
  repoRoot,
  saveScreenshot,
  startBuiltWebShell,
  startWebApp,
  type BrowserSession,
  type WebApp,
} from './harness';
import { eventually, UI_TIMEOUT } from './ui';

/** INTERFACES.md §5: the landmarks every later UI keeps. */
async function expectAppShell(page: Page) {
  const timeout = UI_TIMEOUT;
  await page.getByRole('banner').getByRole('heading', { level: 1, name: 'Plugboard' }).waitFor({ timeout });
  await page.getByRole('tablist', { name: 'Controllers' }).waitFor({ timeout });
  await page.getByRole('button', { name: 'Add controller' }).waitFor({ timeout });
}

/** The version from app/info is shown: as text `v<version>` or in a title attribute. */
async function shownVersion(page: Page, expected: string): Promise<boolean> {
  return page.evaluate(
    (v) =>
      document.body.innerText.includes(v) ||
      [...document.querySelectorAll('[title]')].some((el) => el.getAttribute('title')!.includes(v)),
    `v${expected}`,
  );
}

describe('npm run web in Chromium', () => {
  let app: WebApp & { output(): string };
  let browser: BrowserSession;

  beforeAll(async () => {
    assertRendererBuilt();
    app = await startBuiltWebShell();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('is what npm run web serves once it has built', () => {
    const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // The process these tests start (startBuiltWebShell) is the script's last step, after its build.
    expect(scripts['web']).toMatch(/^electron-vite build\b.* && node out\/main\/web\.js$/);
  });

  it('shows the app shell with no controllers', async () => {
    const { page } = browser;
    await page.goto(app.url);
    // The page took the token out of the address bar (and set no cookie); the address names the page shown.
    expect(page.url()).toBe(`${app.origin}/#/local/overview`);
    await expectAppShell(page);
    await eventually(() => shownVersion(page, packageVersion)).toBe(true);
    await page.getByRole('button', { name: 'Try the demo' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab').count()).toBe(0);
    await saveScreenshot(page, 'app-shell');
    // CSP violations and script errors surface as console errors.
    expect(browser.errors).toEqual([]);
  });

  it('gives the page the contract as window.plugboard, answered by the Core', async () => {
    const { page } = browser;
    const answer = await page.evaluate(async () => {
      const info = await window.plugboard.app.info({});
      const list = await window.plugboard.controllers.list({});
      // Outlet 0 does not exist (outlets are numbered from 1): the Core must answer BAD_INPUT, not throw.
      const bad = await window.plugboard.outlets.cycle({ controllerId: 'x', outlet: 0 });
      let unknownEvent = '';
      try {
        // @ts-expect-error an event the contract does not have
        window.plugboard.on('no/such-event', () => undefined);
      } catch (error) {
        unknownEvent = (error as Error).message;
      }
      return { info, list, bad, unknownEvent, frozen: Object.isFrozen(window.plugboard) };
    });
    expect(answer.info).toEqual({
      ok: true,
      value: expect.objectContaining({ name: 'Plugboard', version: packageVersion, shell: 'web' }),
    });
    expect(answer.list).toEqual({ ok: true, value: [] });
    expect(answer.bad).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringContaining('outlet') },
    });
    expect(answer.unknownEvent).toBe('Unknown event no/such-event');
    expect(answer.frozen).toBe(true);
  });

  it('opens no session in a tab without the token', async () => {
    const fresh = await browser.context.newPage();
    try {
      await fresh.goto(`${app.origin}/`);
      const info = await fresh.evaluate(() => window.plugboard.app.info({}));
      expect(info).toMatchObject({ ok: false, error: { code: 'UNREACHABLE', message: /no access token/ } });
    } finally {
      await fresh.close();
    }
  });
});

describe('the app shell with saved controllers', () => {
  let core: TestCore;
  let app: WebApp;
  let browser: BrowserSession;
  const controllers = [controllerSummary('c1', 'Bench A', 0), controllerSummary('c2', 'Rack 7', 1)];

  beforeAll(async () => {
    core = testCore({ controllers });
    app = await startWebApp({ core });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await core?.dispose();
  });

  it('renders controllers/list as tabs', async () => {
    const { page } = browser;
    await page.goto(app.url);
    await expectAppShell(page);
    const tabs = page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab');
    await eventually(() => tabs.allInnerTexts()).toEqual([
      expect.stringContaining('Bench A'),
      expect.stringContaining('Rack 7'),
    ]);
    expect(browser.errors).toEqual([]);
  });

  it('delivers Core events to listeners in the page, and stops after unsubscribe', async () => {
    const { page } = browser;
    await page.evaluate(() => {
      const seen: unknown[] = [];
      (window as unknown as { seen: unknown[] }).seen = seen;
      const stop = window.plugboard.on('activity/added', (entry) => {
        seen.push(entry);
        stop();
      });
    });
    const entry: ActivityEntry = {
      id: 1,
      time: 1_700_000_000_000,
      controllerId: 'c1',
      controllerName: 'Bench A',
      outlet: 1,
      action: 'on',
      source: 'window',
      who: 'alice',
      result: 'ok',
      error: null,
    };
    core.emit('activity/added', entry);
    await eventually(() => page.evaluate(() => (window as unknown as { seen: unknown[] }).seen.length)).toBe(
      1,
    );
    core.emit('activity/added', { ...entry, id: 2 });
    await page.evaluate(() => window.plugboard.app.info({})); // a round trip after the second event
    expect(await page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)).toEqual([entry]);
  });
});

describe('the demo', () => {
  let app: WebApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    app = await startWebApp({ demo: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows the demo controllers as tabs, live from their emulators', async () => {
    const { page } = browser;
    await page.goto(app.url);
    await expectAppShell(page);
    const tabs = page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab');
    await eventually(() => tabs.count()).toBe(3);
    expect((await tabs.allInnerTexts()).every((text) => /demo/i.test(text))).toBe(true);
    const states = await page.evaluate(async () => {
      const snapshot = await window.plugboard.app.snapshot({});
      return snapshot.ok ? snapshot.value.states.map((s) => s.status) : [];
    });
    expect(states).toHaveLength(3);
    expect(browser.errors).toEqual([]);
  });
});
