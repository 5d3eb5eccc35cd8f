/**
 * Navigation beyond a tab strip (issue 16 items 6 and 14) in Chromium, with 42 saved controllers: one
 * emulator each on its own 127.0.0.N address. The sidebar filters by name and tag, Ctrl+K opens a
 * controller at an outlet found by name, the page never scrolls sideways, and a stopped controller says
 * when Plugboard tries again. The same at 200 controllers: navigation-200.scale.test.ts.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { QUICK_EMULATOR, startLab, type Lab } from './lab';
import { eventually, UI_TIMEOUT, waitForStatus } from './ui';

const COUNT = 42;
const TAGS = ['rack 1', 'rack 2', 'bench'];

/** Controller i: "Unit 07" on 127.0.0.17, tagged by rack; outlet 5 of unit 23 is the one to find. */
const unitName = (i: number) => `Unit ${String(i).padStart(2, '0')}`;

function rows(page: Page) {
  return page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab');
}

async function noSidewaysScroll(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
}

describe('Navigation with 42 controllers in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;
  const emulators: RunningEmulator[] = [];

  beforeAll(async () => {
    // A slow steady poll keeps 42 controllers light on a shared machine; failures still back off.
    lab = await startLab({ pollIntervalMs: 5000 });
    for (let i = 0; i < COUNT; i++) {
      const emu = await startEmulator({
        ...QUICK_EMULATOR,
        host: `127.0.0.${10 + i}`,
        port: 0,
        name: unitName(i),
      });
      emulators.push(emu);
    }
    emulators[23]!.device.setOutlet(4, { name: 'Oscilloscope' });
    for (let from = 0; from < COUNT; from += 6) {
      await Promise.all(
        emulators.slice(from, from + 6).map((emu, k) =>
          lab.core.handlers['controllers/add']({
            name: unitName(from + k),
            url: emu.url,
            auth: { kind: 'digest', user: 'admin', password: '1234' },
            tags: [TAGS[(from + k) % TAGS.length]!],
          }),
        ),
      );
    }
    browser = await lab.openWindow();
    await waitForStatus(browser.page, unitName(41), 'online');
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
    await Promise.all(emulators.map((e) => e.close().catch(() => undefined)));
  });

  it('lists every controller in the sidebar without a sideways scrollbar, axe-clean', async () => {
    const { page } = browser;
    expect(await rows(page).count()).toBe(COUNT);
    const size = await noSidewaysScroll(page);
    expect(size.scrollWidth).toBeLessThanOrEqual(size.clientWidth);
    expect(await page.getByRole('button', { name: 'Add controller' }).isVisible()).toBe(true);
    await saveScreenshot(page, 'navigation-sidebar');
    await expectAccessible(page, 'Sidebar with 42 controllers');
  });

  it('filters the sidebar by name and by tag', async () => {
    const { page } = browser;
    const filter = page.getByRole('searchbox', { name: 'Filter controllers and outlets' });
    await filter.fill('unit 1');
    // "Unit 1" matches Unit 10–19 (a term is matched as written).
    await eventually(() => rows(page).count()).toBe(10);
    for (const text of await rows(page).allTextContents()) expect(text).toMatch(/Unit 1\d/);
    await filter.fill('rack 2');
    await eventually(() => rows(page).count()).toBe(14);
    for (const text of await rows(page).allTextContents()) expect(text).toContain('rack 2');
    await filter.fill('bench, unit 2');
    await eventually(async () =>
      (await rows(page).allTextContents()).map((text) => /Unit \d+/.exec(text)?.[0]).sort(),
    ).toEqual(['Unit 20', 'Unit 23', 'Unit 26', 'Unit 29']);
    await filter.fill('');
    await eventually(() => rows(page).count()).toBe(COUNT);
  });

  it('Ctrl+K finds an outlet by name and opens its controller focused on that outlet’s row', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Overview' }).click();
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Go to a controller, outlet or group' });
    await eventually(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.fill('oscillo');
    const option = page.getByRole('option', { name: /Oscilloscope on Unit 23 · outlet 5/ });
    await eventually(() => option.getAttribute('aria-selected')).toBe('true');
    await expectAccessible(page, 'Quick switcher');
    await page.keyboard.press('Enter');
    await eventually(() => rows(page).filter({ hasText: 'Unit 23' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const select = page.getByRole('checkbox', { name: 'Select outlet 5 (Oscilloscope)' });
    await eventually(() => select.evaluate((el) => el === document.activeElement)).toBe(true);
    const size = await noSidewaysScroll(page);
    expect(size.scrollWidth).toBeLessThanOrEqual(size.clientWidth);
  });

  it('a stopped controller shows "retrying in N s" in its row and header', async () => {
    const { page } = browser;
    await emulators[5]!.device.goOffline();
    await page.getByRole('searchbox', { name: 'Filter controllers and outlets' }).fill('unit 05');
    const row = rows(page).filter({ hasText: 'Unit 05' });
    await eventually(() => row.textContent(), 60_000).toMatch(/offline\s*· retrying (in \d+ s|now)/);
    await row.click();
    await eventually(() => page.getByRole('main').textContent(), UI_TIMEOUT).toMatch(
      /offline\s*· retrying (in \d+ s|now)/,
    );
    await emulators[5]!.device.comeBack();
  });

  it('the sidebar folds away for narrow windows, still without a sideways scrollbar', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 480, height: 800 });
    const fold = page.getByRole('button', { name: 'Controller list' });
    await fold.click();
    expect(await fold.getAttribute('aria-expanded')).toBe('false');
    await eventually(() => rows(page).count()).toBe(0);
    let size = await noSidewaysScroll(page);
    expect(size.scrollWidth).toBeLessThanOrEqual(size.clientWidth);
    await fold.click();
    await eventually(() => rows(page).count()).toBeGreaterThan(0);
    size = await noSidewaysScroll(page);
    expect(size.scrollWidth).toBeLessThanOrEqual(size.clientWidth);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
