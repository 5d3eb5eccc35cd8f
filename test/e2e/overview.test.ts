/**
 * The Overview and the app around the tabs in Chromium: every controller's outlets in one grid, a
 * group that switches outlets on two controllers (one request each), the keyboard between tabs,
 * reordering tabs, and the Settings page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, writes, type Lab } from './lab';
import {
  controllerTab,
  dialog,
  eventually,
  openOverview,
  pausePageClock,
  sectionTab,
  UI_TIMEOUT,
  waitForStatus,
} from './ui';

/** An outlet's button in a controller's card on the Overview. */
function overviewOutlet(page: Page, controller: string, number: number) {
  return page
    .getByRole('list', { name: `Outlets of ${controller}` })
    .getByRole('button', { name: new RegExp(`^${number} `) });
}

/**
 * The tests run in order in one window: the tab order and settings one test changes stay changed for the next.
 */
describe('The Overview in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let rack: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A' });
    rack = await lab.emulator({ name: 'Rack 7', meters: false, firmware: '1.10.15.0' });
    ['Router', 'Switch', 'Scope', 'Signal generator', 'DUT power', 'Logic analyser', 'Lamp', 'Fan'].forEach(
      (name, i) => bench.device.setOutlet(i, { name }),
    );
    ['Server A', 'Server B', 'NAS', 'KVM', 'Console', 'Test load', 'Spare', 'Door lock'].forEach((name, i) =>
      rack.device.setOutlet(i, { name }),
    );
    rack.device.lock(7);
    await lab.add(bench, 'Bench A');
    await lab.add(rack, 'Rack 7');
    browser = await lab.openWindow({ pageClock: true });
    await waitForStatus(browser.page, 'Bench A', 'online');
    await waitForStatus(browser.page, 'Rack 7', 'online');
  });
  afterAll(() => lab?.close());

  it('shows every controller’s outlets in one grid and switches one from there', async () => {
    const { page } = browser;
    const nas = overviewOutlet(page, 'Rack 7', 3);
    await nas.waitFor({ timeout: UI_TIMEOUT });
    expect(await page.getByRole('list', { name: 'Outlets of Bench A' }).getByRole('button').count()).toBe(8);
    expect(await overviewOutlet(page, 'Rack 7', 8).isDisabled()).toBe(true);
    expect(await overviewOutlet(page, 'Rack 7', 8).textContent()).toContain('locked');
    expect(await nas.getAttribute('aria-pressed')).toBe('true');
    // Off takes a second press within 4 s of the page's time, which stands still between the two.
    await pausePageClock(page);
    await nas.click();
    await eventually(() => nas.innerText()).toMatch(/press again: off/i);
    await nas.click();
    await eventually(() => rack.device.outlet(2).physicalState).toBe(false);
    await eventually(() => nas.getAttribute('aria-pressed')).toBe('false');
    await page.clock.resume();
    await saveScreenshot(page, 'overview');
    await expectAccessible(page, 'Overview');
  });

  it('runs a group across two controllers, one request to each', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'New group' }).click();
    const editor = page.getByRole('form', { name: 'New group' });
    await editor.getByRole('textbox', { name: 'Group name' }).fill('Scopes');
    await editor.getByRole('group', { name: 'Bench A' }).getByRole('checkbox', { name: '3 Scope' }).check();
    await editor
      .getByRole('group', { name: 'Bench A' })
      .getByRole('checkbox', { name: '4 Signal generator' })
      .check();
    await editor
      .getByRole('group', { name: 'Rack 7' })
      .getByRole('checkbox', { name: '6 Test load' })
      .check();
    await expectAccessible(page, 'New group form');
    await editor.getByRole('button', { name: 'Save group' }).click();
    const buttons = page.getByRole('group', { name: 'Group Scopes' });
    await buttons.waitFor({ timeout: UI_TIMEOUT });
    expect((await lab.core.handlers['groups/list']({})).map((g) => g.name)).toEqual(['Scopes']);

    rack.device.setOutlet(5, { state: true });
    await bench.device.whenSettled();
    await rack.device.whenSettled();
    bench.device.stats.reset();
    rack.device.stats.reset();
    await buttons.getByRole('button', { name: 'Off' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Switch off group Scopes?');
    await confirm.getByRole('button', { name: 'Switch off' }).click();
    await eventually(() => [
      bench.device.outlet(2).physicalState,
      bench.device.outlet(3).physicalState,
    ]).toEqual([false, false]);
    await eventually(() => rack.device.outlet(5).physicalState).toBe(false);
    expect(writes(bench)).toHaveLength(1);
    expect(writes(rack)).toHaveLength(1);
    await eventually(() => overviewOutlet(page, 'Bench A', 3).getAttribute('aria-pressed')).toBe('false');

    await buttons.getByRole('button', { name: 'On' }).click();
    await eventually(() => rack.device.outlet(5).physicalState).toBe(true);
    await eventually(() => bench.device.outlet(3).physicalState).toBe(true);
  });

  it('moves between tabs with the keyboard and reorders them', async () => {
    const { page } = browser;
    await page.keyboard.press('Control+2');
    await eventually(() => controllerTab(page, 'Rack 7').getAttribute('aria-selected')).toBe('true');
    await sectionTab(page, 'Rack 7', 'Outlets').waitFor({ timeout: UI_TIMEOUT });
    await controllerTab(page, 'Rack 7').focus();
    // The sidebar (issue 16): arrows move the focus, Enter opens; Alt+Shift+Down moves it down.
    await page.keyboard.press('ArrowUp');
    await eventually(() =>
      controllerTab(page, 'Bench A').evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await eventually(() => controllerTab(page, 'Bench A').getAttribute('aria-selected')).toBe('true');

    await page.keyboard.press('Alt+Shift+ArrowDown');
    await eventually(() =>
      page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab').allInnerTexts(),
    ).toEqual([expect.stringContaining('Rack 7'), expect.stringContaining('Bench A')]);
    await eventually(async () =>
      (await lab.core.handlers['controllers/list']({})).map((c) => c.name),
    ).toEqual(['Rack 7', 'Bench A']);
    await page.keyboard.press('Control+0');
    await page.getByRole('heading', { name: 'All outlets' }).waitFor({ timeout: UI_TIMEOUT });
  });

  it('keeps settings: poll interval and theme', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Settings' }).click();
    const poll = page.getByRole('spinbutton', { name: 'Ask each controller for its state every (seconds)' });
    await poll.fill('2.5');
    await poll.press('Tab');
    await eventually(async () => (await lab.core.handlers['settings/get']({})).pollIntervalMs).toBe(2500);
    await saveScreenshot(page, 'settings');
    await expectAccessible(page, 'Settings');

    await page.getByRole('radio', { name: 'Dark' }).check();
    await eventually(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background).toBe('rgb(19, 20, 23)');
    await openOverview(page);
    await page.getByRole('heading', { name: 'All outlets' }).waitFor({ timeout: UI_TIMEOUT });
    await saveScreenshot(page, 'overview-dark');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Follow the system' }).check();
    await eventually(async () => (await lab.core.handlers['settings/get']({})).theme).toBe('system');
    expect(browser.errors).toEqual([]);
  });
});
