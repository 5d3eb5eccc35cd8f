/**
 * The Users tab in Chromium: the user list with its outlet-access matrix, creating a user (with the
 * form's validation) and deleting one after confirmation — checked on the controller; and what a login
 * that is not an administrator sees (Users and Scripts notices, outlets it may not switch).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { dialog, eventually, openSection, outletRow, UI_TIMEOUT } from './ui';

function usersTable(page: Page) {
  return page.getByRole('table', { name: 'Users, their rights and the outlets each may switch' });
}

/** The yes/no cells of a user's row: administrator, allowed, then one per outlet. */
async function userRow(page: Page, name: string): Promise<string[]> {
  const row = usersTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }) });
  return (await row.getByRole('cell').allInnerTexts())
    .map((t) => t.trim())
    .filter((t) => t === 'yes' || t === 'no');
}

/**
 * The tests run in order against one emulator: "deletes a user" deletes the tech1 that the form test created.
 */
describe('Users in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A', outlets: 8 });
    bench.device.setOutlet(0, { name: 'Router' });
    bench.device.setOutlet(2, { name: 'Scope' });
    bench.device.addUser({
      name: 'viewer',
      password: 'look-only',
      isAdmin: false,
      outletAccess: [true, false, true, false, false, false, false, false],
    });
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Users');
    await usersTable(browser.page).waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('lists the users with their rights and outlet access', async () => {
    const { page } = browser;
    await eventually(() => userRow(page, 'viewer')).toEqual([
      'no',
      'yes',
      'yes',
      'no',
      'yes',
      'no',
      'no',
      'no',
      'no',
      'no',
    ]);
    expect(await userRow(page, 'admin')).toEqual(Array(10).fill('yes'));
    expect(
      await usersTable(page)
        .getByRole('rowheader', { name: /^admin/ })
        .innerText(),
    ).toContain('(Plugboard)');
  });

  it('checks the new user form, then creates the user on the controller', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Add user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByRole('textbox', { name: 'User name' }).fill('viewer');
    await form.getByLabel('Password', { exact: true }).fill('s3cret-bench');
    await form.getByLabel('Repeat the password').fill('s3cret-bnech');
    await form.getByRole('button', { name: 'Create user' }).click();
    await eventually(() => form.innerText()).toContain(
      'A user called “viewer” already exists on this controller.',
    );
    expect(await form.innerText()).toContain('The two passwords do not match.');
    await saveScreenshot(page, 'users-form');
    await expectAccessible(page, 'New user form with validation messages');
    expect(bench.device.users().map((u) => u.name)).toEqual(['admin', 'viewer']);

    await form.getByRole('textbox', { name: 'User name' }).fill('tech1');
    await form.getByLabel('Repeat the password').fill('s3cret-bench');
    await form.getByRole('checkbox', { name: '1 Router' }).check();
    await form.getByRole('checkbox', { name: '3 Scope' }).check();
    await form.getByRole('button', { name: 'Create user' }).click();
    await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await eventually(() => bench.device.users().map((u) => u.name)).toEqual(['admin', 'viewer', 'tech1']);
    expect(bench.device.users()[2]).toEqual({
      name: 'tech1',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [true, false, true, false, false, false, false, false],
    });
    await eventually(() => userRow(page, 'tech1')).toEqual([
      'no',
      'yes',
      'yes',
      'no',
      'yes',
      'no',
      'no',
      'no',
      'no',
      'no',
    ]);
    await saveScreenshot(page, 'users');
    await expectAccessible(page, 'Users');
  });

  it('deletes a user after confirmation', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Delete user tech1' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Delete user “tech1” from Bench A?');
    await confirm.getByRole('button', { name: 'Delete user' }).click();
    await eventually(() => bench.device.users().map((u) => u.name)).toEqual(['admin', 'viewer']);
    await eventually(() =>
      usersTable(page)
        .getByRole('rowheader', { name: /^tech1/ })
        .count(),
    ).toBe(0);
    expect(browser.errors).toEqual([]);
  });

  it('shows what a login without administrator rights may and may not do', async () => {
    const { page } = browser;
    const shared = await lab.emulator({ name: 'Shared rack' });
    shared.device.addUser({
      name: 'viewer',
      password: 'look-only',
      isAdmin: false,
      outletAccess: [true, false, false, false, false, false, false, false],
    });
    await lab.add(shared, 'Shared rack', 'viewer', 'look-only');

    await openSection(page, 'Shared rack', 'Users');
    await eventually(() => page.getByRole('main').innerText()).toContain(
      'Managing users needs an administrator. Plugboard is logged in to Shared rack as “viewer”',
    );
    expect(await page.getByRole('button', { name: 'Add user' }).count()).toBe(0);
    await saveScreenshot(page, 'users-not-admin');
    await expectAccessible(page, 'Users, not an administrator');

    await openSection(page, 'Shared rack', 'Scripts');
    await eventually(() => page.getByRole('main').innerText()).toContain('Scripts need an administrator.');

    await openSection(page, 'Shared rack', 'Outlets');
    const allowed = outletRow(page, 1, 'Outlet 1');
    const refused = outletRow(page, 2, 'Outlet 2');
    await refused.waitFor({ timeout: UI_TIMEOUT });
    expect(await refused.getByRole('switch', { name: 'Power of outlet 2' }).isDisabled()).toBe(true);
    expect(await refused.innerText()).toContain(
      'User “viewer” may not switch this outlet; an administrator can grant access on the Users tab.',
    );
    expect(await page.getByText('Only an administrator can rename outlets').count()).toBe(1);
    await saveScreenshot(page, 'outlets-not-admin');
    await expectAccessible(page, 'Outlets, not an administrator');
    await allowed.getByRole('switch', { name: 'Power of outlet 1' }).click();
    await eventually(() => shared.device.outlet(0).physicalState).toBe(false);
    expect(shared.device.outlet(1).physicalState).toBe(true);

    await openSection(page, 'Shared rack', 'System');
    await eventually(() => page.getByRole('main').innerText()).toContain(
      'Needs an administrator; Plugboard is logged in as “viewer”.',
    );
    expect(await page.getByRole('switch', { name: 'SSH access to the controller' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reboot controller…' }).isDisabled()).toBe(true);
    expect(browser.errors).toEqual([]);
  });
});
