/**
 * The window's texts say what the window is now, in Chromium: the empty state points to "Add controller"
 * in the sidebar (there are no tabs with a + any more), Settings' keyboard help describes the sidebar
 * and Ctrl+K, and the web window does not offer what only the desktop app has (start at login, tray
 * favourites). The meter limits' hold time is a setting like the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, mainText } from './ui';

describe('The window’s texts in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    browser = await lab.openWindow();
  });
  afterAll(() => lab?.close());

  it('the empty state points to Add controller in the sidebar', async () => {
    const { page } = browser;
    await page.getByRole('heading', { name: 'No controllers yet' }).waitFor();
    const text = await mainText(page);
    expect(text).toContain('Add a power controller with Add controller at the top of the list on the left');
    expect(text).not.toMatch(/tabs|\+ button/);
  });

  it('Settings in the web window: keyboard help for the sidebar and Ctrl+K, nothing only the desktop app has', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Settings' }).click();
    const keys = page.getByRole('region', { name: 'Keyboard' });
    const help = (await keys.innerText()).replace(/\s+/g, ' ');
    expect(help).toContain('Ctrl + K Go to a controller, an outlet or a group by name');
    expect(help).toContain('↑ ↓ Home End in the sidebar Move between controllers');
    expect(help).not.toMatch(/controller tab|Move between tabs/);
    expect(await page.getByRole('checkbox', { name: 'Start Plugboard when I log in' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Tray favourites' }).count()).toBe(0);

    const hold = page.getByRole('spinbutton', { name: /counts as outside its limits after/ });
    expect(await hold.inputValue()).toBe('15');
    await hold.fill('30');
    await hold.press('Tab');
    await eventually(async () => (await lab.core.handlers['settings/get']({})).meterLimitHoldSeconds).toBe(
      30,
    );
    await saveScreenshot(page, 'settings-web');
    await expectAccessible(page, 'Settings in the web window');
    expect(browser.errors).toEqual([]);
  });
});
