/**
 * Deleting users in Chromium: the only administrator cannot be deleted (the dialog says why and offers
 * nothing to confirm); a change the controller refuses says what the controller asks, not "correct the
 * field named above"; after deleting Plugboard's own login the table shows it gone at once and the
 * status and System tab say that Plugboard is no longer let in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { dialog, eventually, mainText, openSection, UI_TIMEOUT, waitForStatus } from './ui';

describe('Deleting users in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A' });
    bench.device.addUser({
      name: 'tech',
      password: 'tech-pw',
      isAdmin: false,
      outletAccess: Array(8).fill(false),
    });
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Users');
    await browser.page.getByRole('button', { name: 'Delete user tech' }).waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('the only administrator cannot be deleted, and the dialog says why', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Delete user admin' }).click();
    const box = dialog(page);
    await box.waitFor({ timeout: UI_TIMEOUT });
    expect(await box.innerText()).toContain(
      'admin is the only administrator who may log in to Bench A, and the controller keeps at least one. Make another user an administrator first (✎ on its row), then delete admin.',
    );
    expect(await box.getByRole('button', { name: 'Delete user' }).isDisabled()).toBe(true);
    expect(await box.getByRole('checkbox').count()).toBe(0);
    await saveScreenshot(page, 'users-delete-last-admin');
    await expectAccessible(page, 'Deleting the only administrator');
    await box.getByRole('button', { name: 'Close' }).click();
    expect(bench.device.users().map((u) => u.name)).toEqual(['admin', 'tech']);
  });

  it('a change the controller refuses says what the controller asks, with no field to correct', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Change user admin' }).click();
    const form = page.getByRole('form', { name: 'Change user “admin”' });
    await form.getByRole('checkbox', { name: /Administrator/ }).uncheck();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await eventually(() => mainText(page)).toContain('the last administrator who may log in');
    const text = await mainText(page);
    expect(text).not.toContain('Correct the field named above');
    expect(text).toContain('Do first what the controller’s answer above asks, then try again.');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it("after deleting Plugboard's own login the table shows it gone, and the status and System say Plugboard is not let in", async () => {
    const { page } = browser;
    // Another administrator first: then the controller lets admin go.
    await page.getByRole('button', { name: 'Change user tech' }).click();
    const form = page.getByRole('form', { name: 'Change user “tech”' });
    await form.getByRole('checkbox', { name: /Administrator/ }).check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await eventually(() => bench.device.users().find((u) => u.name === 'tech')?.isAdmin).toBe(true);

    await page.getByRole('button', { name: 'Delete user admin' }).click();
    const box = dialog(page);
    await box.getByRole('checkbox').check();
    await box.getByRole('button', { name: 'Delete user' }).click();
    const table = page.getByRole('table');
    await eventually(() => table.getByRole('rowheader').allInnerTexts()).toEqual(['tech']);
    await waitForStatus(page, 'Bench A', 'auth problem');
    expect(bench.device.users().map((u) => u.name)).toEqual(['tech']);

    await openSection(page, 'Bench A', 'System');
    await eventually(() => mainText(page)).toContain(
      'As Bench A last answered: it does not accept the saved login.',
    );
    await saveScreenshot(page, 'users-own-deleted-system');
    expect(browser.errors).toEqual([]);
  });
});
