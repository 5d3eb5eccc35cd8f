/**
 * Issue 16 items 5 and 13 in Chromium: a user is changed in place (outlets, administrator, allowed,
 * password), checked on the controller; a new password for the user Plugboard logs in as keeps
 * Plugboard connected; deleting that user is confirmed like a critical outlet, saying what breaks.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DliClient } from '../../src-main/dli/client';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { dialog, eventually, openSection, UI_TIMEOUT, waitForStatus } from './ui';

/** Whether the controller lets `user` log in with `password` (a real digest login). */
async function acceptsLogin(emu: RunningEmulator, user: string, password: string): Promise<boolean> {
  const client = new DliClient({ url: emu.url, credentials: { kind: 'digest', user, password } });
  try {
    await client.outlets.list();
    return true;
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

function editForm(page: Page, name: string) {
  return page.getByRole('form', { name: `Change user “${name}”` });
}

describe('Changing users in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A', outlets: 8 });
    bench.device.setOutlet(0, { name: 'Router' });
    bench.device.addUser({
      name: 'tech',
      password: 'tech-pw',
      isAdmin: false,
      outletAccess: [true, false, false, false, false, false, false, false],
    });
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Users');
    await browser.page.getByRole('button', { name: 'Change user tech' }).waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it("changes a user's outlets, administrator, allowed and password on the controller", async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Change user tech' }).click();
    const form = editForm(page, 'tech');
    await form.getByRole('checkbox', { name: '1 Router' }).uncheck();
    await form.getByRole('checkbox', { name: /^3\b/ }).check();
    await form.getByRole('checkbox', { name: /Administrator/ }).check();
    await form.getByRole('checkbox', { name: 'Allowed to log in' }).uncheck();
    await form.getByLabel('New password (empty: keep it)').fill('tech-new-pw');
    await form.getByLabel('Repeat the new password').fill('tech-new-pw');
    await saveScreenshot(page, 'users-edit');
    await expectAccessible(page, 'Change user form');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await eventually(() => bench.device.users().find((u) => u.name === 'tech')).toEqual({
      name: 'tech',
      isAdmin: true,
      isAllowed: false,
      outletAccess: [false, false, true, false, false, false, false, false],
    });
    // Not allowed now, so no login works; allowed again, the new password does.
    await page.getByRole('button', { name: 'Change user tech' }).click();
    await editForm(page, 'tech').getByRole('checkbox', { name: 'Allowed to log in' }).check();
    await editForm(page, 'tech').getByRole('button', { name: 'Save changes' }).click();
    await eventually(() => bench.device.users().find((u) => u.name === 'tech')?.isAllowed).toBe(true);
    expect(await acceptsLogin(bench, 'tech', 'tech-new-pw')).toBe(true);
    expect(await acceptsLogin(bench, 'tech', 'tech-pw')).toBe(false);
  });

  it("a new password for Plugboard's own user keeps Plugboard connected", async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Change user admin' }).click();
    const form = editForm(page, 'admin');
    expect(await form.innerText()).toContain('Plugboard logs in as this user');
    await form.getByLabel('New password (empty: keep it)').fill('admin-new-pw');
    await form.getByLabel('Repeat the new password').fill('admin-new-pw');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    expect(await acceptsLogin(bench, 'admin', 'admin-new-pw')).toBe(true);
    // Plugboard still switches with the new password.
    bench.device.stats.reset();
    await openSection(page, 'Bench A', 'Outlets');
    await page.getByRole('switch', { name: 'Power of outlet 2' }).click();
    await eventually(() => bench.device.outlet(1).physicalState).toBe(false);
    await waitForStatus(page, 'Bench A', 'online');
    expect(bench.device.stats.log.filter((r) => r.status === 401 && r.method !== 'GET')).toEqual([]);
  });

  it("deleting Plugboard's own user is confirmed like a critical outlet and says what breaks", async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'Users');
    await page.getByRole('button', { name: 'Delete user admin' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('paragraph').first().innerText()).toBe(
      "Plugboard logs in to Bench A as admin: after deleting it, Plugboard can no longer reach Bench A until you give another user's password.",
    );
    const remove = confirm.getByRole('button', { name: 'Delete user' });
    expect(await remove.isDisabled()).toBe(true);
    await saveScreenshot(page, 'users-delete-own');
    await expectAccessible(page, 'Delete own user confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(bench.device.users().map((u) => u.name)).toEqual(['admin', 'tech']);
    expect(browser.errors).toEqual([]);
  });
});
