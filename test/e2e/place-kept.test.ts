/**
 * Your place is kept, in Chromium, among 40 controllers: the page is in the address (a reload lands on
 * the same controller and section; back and forward move between places), the sidebar scrolls to the
 * controller Go to opened, Go to says how many matched and what is on, the Inventory lists what the
 * sidebar's filter lets through and opens a controller from its row, and the group editor's filter
 * matches tags.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { saveAll, startManyControllers, type ManyControllers } from './lab-200';
import { controllerTab, eventually, openOverview, sectionTab, UI_TIMEOUT, waitForStatus } from './ui';

const COUNT = 40;

/** The address after the page's origin and path: "#/local/…". */
const hashOf = (page: Page) => page.evaluate(() => location.hash);

/** Whether a controller's row in the sidebar is inside the sidebar's visible box. */
function rowInView(page: Page, name: string): Promise<boolean> {
  return controllerTab(page, name).evaluate((row) => {
    const box = row.closest('nav')!.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom;
  });
}

async function selectedSection(page: Page, controller: string): Promise<string> {
  return page
    .getByRole('tablist', { name: `Sections of ${controller}` })
    .locator('[aria-selected="true"]')
    .innerText();
}

describe('Your place is kept, in Chromium', () => {
  let lab: Lab;
  let many: ManyControllers;
  let browser: BrowserSession;
  let ids: Record<string, string>;

  beforeAll(async () => {
    lab = await startLab();
    many = await startManyControllers({ count: COUNT });
    // Units 1–10 are in "rack 7", the rest on "bench".
    const saved = await saveAll(lab.core, many, (i) => [i < 10 ? 'rack 7' : 'bench']);
    ids = Object.fromEntries(saved.map((c) => [c.name, c.id]));
    browser = await lab.openWindow();
    await waitForStatus(browser.page, 'Unit 040', 'online', 60_000);
  }, 120_000);
  afterAll(async () => {
    await lab?.close();
    await many?.close();
  });

  it('the address names the page: a reload lands on the same controller and section, back and forward move between places', async () => {
    const { page } = browser;
    expect(await hashOf(page)).toBe('#/local/overview');
    await controllerTab(page, 'Unit 002').click();
    await sectionTab(page, 'Unit 002', 'System').click();
    await eventually(() => hashOf(page)).toBe(`#/local/${ids['Unit 002']}/system`);
    await controllerTab(page, 'Unit 003').click();
    await eventually(() => hashOf(page)).toBe(`#/local/${ids['Unit 003']}/outlets`);

    await page.reload();
    await sectionTab(page, 'Unit 003', 'Outlets').waitFor({ timeout: UI_TIMEOUT });
    expect(await selectedSection(page, 'Unit 003')).toBe('Outlets');
    expect(await controllerTab(page, 'Unit 003').getAttribute('aria-selected')).toBe('true');

    await page.goBack();
    await eventually(() => selectedSection(page, 'Unit 002').catch(() => '')).toBe('System');
    // Each section shown was a place of its own.
    await page.goBack();
    await eventually(() => selectedSection(page, 'Unit 002').catch(() => '')).toBe('Outlets');
    await page.goBack();
    await page.getByRole('region', { name: 'Overview' }).waitFor({ timeout: UI_TIMEOUT });
    await page.goForward();
    await eventually(() => selectedSection(page, 'Unit 002').catch(() => '')).toBe('Outlets');
    await page.goForward();
    await eventually(() => selectedSection(page, 'Unit 002').catch(() => '')).toBe('System');

    // An address that names no controller opens the Overview, in place of the dead one.
    await page.evaluate(() => (location.hash = '#/local/c00000000/outlets'));
    await page.getByRole('region', { name: 'Overview' }).waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => hashOf(page)).toBe('#/local/overview');
  });

  it('Go to says how many matched and what is on, and the sidebar scrolls to what it opened', async () => {
    const { page } = browser;
    await openOverview(page);
    expect(await rowInView(page, 'Unit 037')).toBe(false);
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: 'Go to a controller, outlet or group' });
    await input.fill('outlet');
    const dialog = page.getByRole('dialog');
    // 8 named outlets on each of 40 controllers: the first 50, and how many there are.
    await eventually(() => dialog.getByRole('status').innerText()).toBe(
      `50 of ${COUNT * 8} shown: type more to narrow them.`,
    );
    const first = dialog.getByRole('option').first();
    expect(await first.innerText()).toMatch(/^Outlet 1 on Unit 001 · outlet 1\s*on\s*Outlet$/);
    expect(await dialog.getByRole('option').nth(4).innerText()).toMatch(/\boff\s*Outlet$/);
    await saveScreenshot(page, 'go-to-counts', { fullPage: false });
    await expectAccessible(page, 'Go to with counts and states');
    await input.fill('Unit 037');
    await eventually(() => dialog.getByRole('option').first().innerText()).toMatch(
      /^Unit 037\s*4 of 8 on\s*Controller$/,
    );
    await input.press('Enter');
    await eventually(() => controllerTab(page, 'Unit 037').getAttribute('aria-selected')).toBe('true');
    await eventually(() => rowInView(page, 'Unit 037')).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('the Inventory lists what the sidebar’s filter lets through, and a row opens its controller', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Inventory' }).click();
    await page.getByRole('searchbox', { name: 'Filter controllers and outlets' }).fill('rack 7');
    const status = page.getByRole('region', { name: 'Inventory' }).getByRole('status').first();
    await eventually(() => status.innerText()).toMatch(
      /^10 of 40 controllers \(the sidebar’s filter “rack 7”\)/,
    );
    const rows = page.getByRole('region', { name: 'Inventory table' }).getByRole('row');
    await eventually(() => rows.count()).toBe(11);
    await saveScreenshot(page, 'inventory-filtered');
    await expectAccessible(page, 'Inventory with the sidebar’s filter');
    await page.getByRole('button', { name: 'Unit 004', exact: true }).click();
    await eventually(() => hashOf(page)).toBe(`#/local/${ids['Unit 004']}/outlets`);
    await page.getByRole('searchbox', { name: 'Filter controllers and outlets' }).fill('');
  });

  it('the group editor’s filter matches tags', async () => {
    const { page } = browser;
    await openOverview(page);
    await page.getByRole('button', { name: 'New group' }).click();
    const editor = page.getByRole('form', { name: 'New group' });
    await editor.getByRole('searchbox', { name: 'Filter outlets' }).fill('rack 7, outlet 3');
    const legends = () => editor.locator('fieldset > legend').allInnerTexts();
    await eventually(legends).toHaveLength(10);
    expect((await legends()).every((name) => Number(name.replace('Unit ', '')) <= 10)).toBe(true);
    expect(await editor.getByRole('checkbox', { name: /^\d/ }).count()).toBe(10);
    expect(browser.errors).toEqual([]);
  });
});
