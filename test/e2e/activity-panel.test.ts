/**
 * The Activity panel in Chromium (issue 16 item 12): who did what to the Router — outlets named with
 * their numbers, an all on as one entry that opens to its outlets, filters by outlet name, who and
 * time, and the export as CSV and JSON lines.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import { expectAccessible } from './a11y';
import { downloadText, saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, openSection, UI_TIMEOUT, waitForStatus } from './ui';

const NAMES = ['Router', 'Switch', 'Scope', 'Signal generator', 'Lamp', 'Fan', 'Charger', 'Spare'];

function log(page: Page) {
  return page.getByRole('list', { name: 'Activity, newest first' });
}

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: UI_TIMEOUT }),
    page.getByRole('button', { name: button }).click(),
  ]);
  return { name: file.suggestedFilename(), text: await downloadText(file) };
}

describe('The Activity panel in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    const bench = await lab.emulator({ initialStates: Array<boolean>(8).fill(false) });
    NAMES.forEach((name, i) => bench.device.setOutlet(i, { name }));
    const { id } = await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await waitForStatus(browser.page, 'Bench A', 'online');
    // bob switches all on from the CLI; carol switches the Router off through the JSON API.
    await lab.core
      .handlersAs({ door: 'cli', who: 'bob', role: 'operator' })
      ['outlets/set']({ controllerId: id, outlets: 'all', on: true });
    await lab.core
      .handlersAs({ door: 'json-api', who: 'carol', role: 'operator', credential: 'token' })
      ['outlets/set']({ controllerId: id, outlets: [1], on: false });
  });
  afterAll(() => lab?.close());

  it('shows the all on as one entry that opens to its 8 outlets, by name and number', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'Activity');
    const batch = log(page).getByRole('button', { name: /Bench A, 8 outlets/ });
    await batch.waitFor({ timeout: UI_TIMEOUT });
    expect(await log(page).innerText()).toMatch(/Bench A, Router \(1\)\s+off\s+by carol, JSON API\s+done/);
    expect(await batch.getAttribute('aria-expanded')).toBe('false');
    await batch.click();
    await eventually(() => batch.getAttribute('aria-expanded')).toBe('true');
    const parts = await log(page).locator('.part .who').allInnerTexts();
    expect(parts.map((p) => p.trim())).toEqual(NAMES.map((name, i) => `${name} (${i + 1})`));
    expect(await batch.evaluate((b) => b === document.activeElement)).toBe(true);
    await saveScreenshot(page, 'activity-batch');
    await expectAccessible(page, 'Activity');
    await batch.click();
    await eventually(() => log(page).locator('.part').count()).toBe(0);
  });

  it('filters by outlet name and who, and exports what the filters select', async () => {
    const { page } = browser;
    const status = page.getByRole('region', { name: 'Activity' }).getByRole('status').first();
    await page.getByRole('searchbox', { name: 'Outlet', exact: true }).fill('rout');
    await eventually(() => status.innerText()).toBe('2 entries');
    await page.getByRole('combobox', { name: 'Who' }).selectOption({ label: 'carol, JSON API' });
    await eventually(() => status.innerText()).toBe('1 entry');

    const csv = await download(page, 'Export CSV');
    expect(csv.name).toMatch(/^plugboard-activity-.+\.csv$/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'time,controller,outlet,action,door,who,result,error_code,error,outlet_name,batch,count,last_time',
    );
    // A switch, not a repeated refusal folded into one entry: no count, no last time.
    expect(lines[1]).toMatch(/^[\d-]+T[\d:.]+Z,Bench A,1,off,json-api,carol,ok,,,Router,\d+,,$/);

    await page.getByRole('combobox', { name: 'Who' }).selectOption({ label: 'bob, CLI' });
    const jsonl = await download(page, 'Export JSONL');
    expect(jsonl.name).toMatch(/\.jsonl$/);
    const entries = jsonl.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ActivityEntry);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      outlet: 1,
      outletName: 'Router',
      action: 'on',
      source: 'cli',
      who: 'bob',
    });
  });

  it('filters by time', async () => {
    const { page } = browser;
    const status = page.getByRole('region', { name: 'Activity' }).getByRole('status').first();
    await page.getByRole('combobox', { name: 'Who' }).selectOption({ label: 'Anyone' });
    await page.getByRole('searchbox', { name: 'Outlet', exact: true }).fill('');
    await eventually(() => status.innerText()).toMatch(/^[1-9]\d* entries$/);
    await page.getByLabel('From', { exact: true }).fill('2099-01-01T00:00');
    await eventually(() => status.innerText()).toBe('0 entries');
    await page.getByLabel('From', { exact: true }).fill('');
    await page.getByLabel('To', { exact: true }).fill('2000-01-01T00:00');
    await eventually(() => status.innerText()).toBe('0 entries');
    await page.getByLabel('To', { exact: true }).fill('');
    await eventually(() => status.innerText()).toMatch(/^[1-9]\d* entries$/);
    expect(browser.errors).toEqual([]);
  });
});
