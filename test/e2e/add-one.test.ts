/**
 * Adding one controller in Chromium, where the person is: a refused login brings its message into
 * view and marks the password field; an HTTPS unit's certificate box comes into view with the focus; the
 * form promises no keychain when none answered; a slow unit shows how long it has been checking, and
 * Cancel adds nothing. Also the window's current page, which must not look like keyboard focus.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, UI_TIMEOUT } from './ui';

function form(page: Page) {
  return page.getByRole('form', { name: 'By address' });
}

/** Whether the element is wholly on screen and not under the sticky top bar. */
async function inView(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box || box.y < 0 || box.y + box.height > viewport.height) return false;
  return element.evaluate((el, { x, y }) => el.contains(document.elementFromPoint(x, y)), {
    x: box.x + 4,
    y: box.y + 4,
  });
}

async function fillAndAdd(page: Page, address: string, password: string): Promise<void> {
  const add = form(page);
  await add.getByRole('textbox', { name: 'Address' }).fill(address);
  await add.getByLabel('Password', { exact: true }).fill(password);
  await add.getByRole('button', { name: 'Add this controller' }).click();
}

describe('Adding one controller in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    browser = await lab.openWindow({ pageClock: true });
    await browser.page.getByRole('button', { name: 'Add controller' }).click();
  });
  afterAll(() => lab?.close());

  it('promises no keychain when none answered', async () => {
    // The lab's Core keeps secrets in memory: as when no keychain answers.
    const text = await form(browser.page).innerText();
    expect(text).toContain('No keychain answered on this computer');
    expect(text).not.toContain('keeps it in the system keychain');
  });

  it('a refused login: the message in view, the password marked and focused', async () => {
    const { page } = browser;
    const bench = await lab.emulator({ name: 'Bench A' });
    await fillAndAdd(page, bench.url, 'not-the-password');
    const alert = form(page).getByRole('alert');
    await eventually(() => alert.getAttribute('data-code'), 30_000).toBe('AUTH_FAILED');
    const password = form(page).getByLabel('Password', { exact: true });
    await eventually(() => inView(page, alert)).toBe(true);
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await inView(page, password)).toBe(true);
    await saveScreenshot(page, 'add-one-wrong-password', { fullPage: false });
    await expectAccessible(page, 'Add form, wrong password');
    // Typing a new one takes the mark away.
    await password.fill('1234');
    expect(await password.getAttribute('aria-invalid')).toBe('false');
  });

  it('an HTTPS unit: the certificate box in view, with the focus', async () => {
    const { page } = browser;
    const secure = await lab.emulator({ name: 'Secure', tls: true });
    await fillAndAdd(page, secure.url, '1234');
    const box = form(page).getByRole('alert').filter({ hasText: 'Check this controller’s certificate.' });
    await box.waitFor({ timeout: 30_000 });
    await eventually(() => inView(page, box)).toBe(true);
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await form(page).getByRole('button', { name: 'Cancel' }).click();
  });

  it('a slow unit: the seconds it has been checking, and Cancel adds nothing', async () => {
    const { page } = browser;
    // Each answer takes a while, but the check can finish: what it added after Cancel is taken back.
    const slow = await lab.emulator({ name: 'Slow', latency: 500 });
    await fillAndAdd(page, slow.url, '1234');
    const status = form(page).getByRole('status');
    await eventually(() => status.innerText()).toMatch(
      /^Connecting to http:\/\/127\.0\.0\.1:\d+, logging in/,
    );
    // The window's own clock: four seconds later it says so, whatever the machine's pace.
    await page.clock.runFor(4_000);
    await eventually(() => status.innerText()).toMatch(/: 4 s so far\. A slow controller can take/);
    await saveScreenshot(page, 'add-one-slow', { fullPage: false });
    await form(page).getByRole('button', { name: 'Cancel' }).click();
    await form(page).getByRole('button', { name: 'Add this controller' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await status.count()).toBe(0);
    const removed = async () =>
      (await lab.core.handlers['activity/list']({})).some((e) => e.action === 'removed from Plugboard');
    await eventually(removed, 60_000).toBe(true);
    expect(await lab.core.handlers['controllers/list']({})).toEqual([]);
    expect(await page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab').count()).toBe(0);
  }, 120_000);

  it('marks the current page with a bar, not with the keyboard focus’s outline', async () => {
    const { page } = browser;
    const current = page.getByRole('button', { name: 'Add controller' });
    expect(await current.getAttribute('aria-current')).toBe('page');
    const overview = page.getByRole('button', { name: 'Overview' });
    await overview.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const focusColour = await overview.evaluate((el) => getComputedStyle(el).outlineColor);
    const look = await current.evaluate((el) => {
      const style = getComputedStyle(el);
      return [style.borderTopColor, style.borderRightColor, style.borderBottomColor];
    });
    expect(look).not.toContain(focusColour);
    expect(browser.errors).toEqual([]);
  });
});
