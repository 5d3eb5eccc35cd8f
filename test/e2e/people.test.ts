/**
 * The People page in Chromium, on a Core with a lab store: adding an account scoped to a tag and three
 * outlets, seeing it listed with that scope in words, the Core's refusal of a too-short password in its
 * own sentence, and disabling the account — each checked in the Core's accounts too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLabRecords } from '../../src-main/core/index';
import { expectAccessible } from './a11y';
import { packageVersion, saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, UI_TIMEOUT, waitForStatus } from './ui';

function accountsTable(page: Page) {
  return page.getByRole('table', { name: 'Accounts, their roles and where each applies' });
}

function accountRow(page: Page, name: string) {
  return accountsTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }) });
}

describe('People in Chromium', () => {
  let dir: string;
  let lab: Lab;
  let browser: BrowserSession;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plugboard-e2e-people-'));
    const records = await openLabRecords(dir, packageVersion, () => undefined, Date.now(), {});
    lab = await startLab({ records });
    const bench = await lab.emulator({ name: 'Bench A', outlets: 8 });
    const added = await lab.add(bench, 'Bench A');
    await lab.core.handlers['controllers/update']({ id: added.id, tags: ['rack-7'] });
    browser = await lab.openWindow();
    await waitForStatus(browser.page, 'Bench A', 'online');
  });
  afterAll(async () => {
    await lab?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("adds an account, lists its scope in words, shows the Core's refusal, and disables it", async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'People' }).click();
    await expect.poll(() => page.url()).toMatch(/#\/local\/people$/);
    await page.getByRole('button', { name: 'Add account' }).click();
    const form = page.getByRole('form', { name: 'New account' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('bob');
    await form.getByRole('textbox', { name: 'Display name (optional)' }).fill('Bob Builder');
    await form.getByRole('radio', { name: /Some tags/ }).check();
    await form.getByRole('checkbox', { name: 'rack-7' }).check();
    for (const n of [1, 2, 3]) await form.getByRole('checkbox', { name: new RegExp(`^${n}\\b`) }).check();
    await form.getByLabel('Password', { exact: true }).fill('too short');
    await form.getByLabel('Repeat the password').fill('too short');
    await form.getByRole('button', { name: 'Add account' }).click();
    await form
      .getByText('The password is shorter than 12 characters: choose a longer one', { exact: false })
      .waitFor({ timeout: UI_TIMEOUT });
    expect(await form.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await expectAccessible(page, 'the People page with the new-account form and a refusal');

    await form.getByLabel('Password', { exact: true }).fill('a long enough password');
    await form.getByLabel('Repeat the password').fill('a long enough password');
    await form.getByRole('button', { name: 'Add account' }).click();
    await accountRow(page, 'bob').waitFor({ timeout: UI_TIMEOUT });
    expect(await accountRow(page, 'bob').innerText()).toContain('tag rack-7; Bench A outlets 1–3');
    await eventually(async () => {
      const list = await lab.core.handlers['accounts/list']({});
      return list.find((a) => a.name === 'bob');
    }).toMatchObject({ displayName: 'Bob Builder', role: 'operator', disabled: false, hasPassword: true });

    await accountRow(page, 'bob').getByRole('button', { name: 'Disable bob' }).click();
    await accountRow(page, 'bob')
      .getByRole('button', { name: 'Enable bob' })
      .waitFor({ timeout: UI_TIMEOUT });
    expect(await accountRow(page, 'bob').innerText()).toContain('disabled');
    expect((await lab.core.handlers['accounts/list']({})).find((a) => a.name === 'bob')?.disabled).toBe(true);
    await saveScreenshot(page, 'people');
  });
});
