/**
 * Adding 150 controllers in Chromium, where the person is: after "Add selected…" for a range probe of
 * 150 emulated units, and after reading a CSV file of 150 rows, the one-login form is on screen (its
 * box inside the viewport) with its first field focused; progress counts ("Checked 16 of 150
 * controllers…"); the results are a compact table with the units' names and models, problems first.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { QUICK_EMULATOR, startLab, type Lab } from './lab';
import { eventually, recordChanges, UI_TIMEOUT } from './ui';

const COUNT = 150;
const FIRST = 10;
const scratch = mkdtempSync(join(tmpdir(), 'plugboard-e2e-bulk150-'));
const units: RunningEmulator[] = [];

/** Whether the element's box lies wholly inside the window's viewport. */
async function inViewport(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize()!;
  return (
    box !== null &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= viewport.height &&
    box.x + box.width <= viewport.width
  );
}

async function focusedIsIn(form: Locator): Promise<string | null> {
  return form.evaluate((el) =>
    el.contains(document.activeElement) ? (document.activeElement as HTMLInputElement).type : null,
  );
}

/** The counts the progress line showed while the units were checked, in order. */
function countsSeen(texts: string[]): number[] {
  return [
    ...new Set(
      texts.flatMap((t) => [...t.matchAll(/Checked (\d+) of 150 controllers…/g)].map((m) => Number(m[1]))),
    ),
  ];
}

describe('Adding 150 controllers in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;
  let port: string;

  beforeAll(async () => {
    // Slow polling: 150 saved controllers polled every second would only load the machine.
    lab = await startLab({ pollIntervalMs: 60_000 });
    for (let i = 0; i < COUNT; i++) {
      units.push(
        await startEmulator({
          ...QUICK_EMULATOR,
          host: `127.0.0.${FIRST + i}`,
          port: units[0] ? Number(new URL(units[0].url).port) : 0,
          name: `Rack ${FIRST + i}`,
        }),
      );
    }
    port = new URL(units[0]!.url).port;
    browser = await lab.openWindow();
    await browser.page.getByRole('button', { name: 'Add controller' }).click();
  });
  afterAll(async () => {
    await lab?.close();
    await Promise.all(units.map((u) => u.close().catch(() => undefined)));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a range probe of 150: the form opens in view after Add selected…, progress counts, a compact table', async () => {
    const { page } = browser;
    const panel = page.getByRole('region', { name: 'Find controllers on the network' });
    // A range search searches the range only: no multicast unless asked.
    expect(await panel.getByRole('checkbox', { name: /mDNS/ }).isChecked()).toBe(false);
    expect(await panel.getByRole('checkbox', { name: /SSDP/ }).isChecked()).toBe(false);
    await panel
      .getByRole('textbox', { name: /Address range/ })
      .fill(`127.0.0.${FIRST}-127.0.0.${FIRST + COUNT - 1}:${port}`);
    await panel.getByRole('button', { name: 'Search' }).click();
    await eventually(() => panel.getByText(/Probed 150 of 150 addresses — done\./).count(), 90_000).toBe(1);
    const found = panel.getByRole('table', { name: 'Controllers found' });
    expect(await found.getByRole('columnheader').allInnerTexts()).toEqual(
      expect.arrayContaining(['Address', 'Name', 'Model']),
    );
    expect(await found.getByRole('row').count()).toBe(COUNT + 1);
    const selectGroup = panel.getByRole('group', { name: 'Select found controllers' });
    await selectGroup.getByRole('button', { name: 'Select all' }).click();
    await page.mouse.wheel(0, 4000);
    await selectGroup.getByRole('button', { name: 'Add selected…' }).click();

    const form = page.getByRole('form', { name: 'Add 150 controllers with one login' });
    await form.waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => inViewport(page, form)).toBe(true);
    expect(await focusedIsIn(form)).toBe('text');
    await saveScreenshot(page, 'bulk-add-150-form', { fullPage: false });

    await form.getByLabel('Password', { exact: true }).fill('1234');
    const record = await recordChanges(form);
    await form.getByRole('button', { name: 'Add 150 controllers' }).click();
    await eventually(() => form.getByRole('status').innerText(), 120_000).toBe(
      '150 of 150 controllers added.',
    );
    const counts = countsSeen((await record.stop()).map((m) => m.text));
    // The count moved on while the units were checked, never back.
    expect(counts.some((n) => n > 0 && n < COUNT)).toBe(true);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    const results = form.getByRole('table', { name: 'Results' });
    expect(await results.getByRole('row').count()).toBe(COUNT + 1);
    const first = results.getByRole('row').nth(1);
    expect(await first.innerText()).toMatch(
      /http:\/\/127\.0\.0\.10:\d+\s+Rack 10\s+\S+.*Added as “Rack 10”\./s,
    );
    expect(await panel.getByText('Already in Plugboard').count()).toBe(COUNT);
    await saveScreenshot(page, 'bulk-add-150-results', { fullPage: false });
    await expectAccessible(page, 'bulk add of 150, results');
  });

  it('a CSV file of 150: the form above the list and in view, problems first, only problems on asking', async () => {
    const { page } = browser;
    // The same units again, from a file: forget them first, and let one stop answering.
    for (const c of await lab.core.handlers['controllers/list']({}))
      await lab.core.handlers['controllers/remove']({ id: c.id });
    const gone = units.at(-1)!;
    await gone.close();
    const host = (u: RunningEmulator) => new URL(u.url).host;
    const file = join(scratch, 'lab-150.csv');
    writeFileSync(
      file,
      [
        'name,address,user,tags',
        ...units.map((u, i) => `Bench ${FIRST + i},${host(u)},,rack`),
        'Broken,ftp://10.0.0.1,,',
        `Twice,${host(units[0]!)},,`,
      ].join('\n'),
    );
    const csv = page.getByRole('region', { name: 'Import a CSV file' });
    await csv.getByLabel('CSV file').setInputFiles(file);
    const form = csv.getByRole('form', { name: 'Add 150 controllers with one login' });
    await form.waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => inViewport(page, form)).toBe(true);
    expect(await focusedIsIn(form)).toBe('text');

    const table = csv.getByRole('table', { name: 'Rows in the file' });
    const rows = table.getByRole('row');
    expect(await rows.count()).toBe(153);
    expect(await rows.nth(2).innerText()).toContain('Twice');
    // The row with a problem comes first, and its problem is in the second column, not cut off.
    expect(await rows.nth(1).getByRole('cell').nth(1).innerText()).toContain(
      'must start with http:// or https://',
    );
    await csv.getByRole('checkbox', { name: 'Show only problems' }).check();
    expect(await rows.count()).toBe(3);
    await saveScreenshot(page, 'csv-150-preview', { fullPage: false });
    await expectAccessible(page, 'CSV import of 150, preview');

    await form.getByLabel('Password', { exact: true }).fill('1234');
    await form.getByRole('button', { name: 'Add 150 controllers' }).click();
    const status = form.getByRole('status');
    await eventually(() => status.innerText(), 120_000).toBe('149 of 150 controllers added; 1 not added.');
    expect(await inViewport(page, status)).toBe(true);
    const results = form.getByRole('table', { name: 'Results' });
    // The one that did not answer heads the results; only it when only problems are asked for.
    expect(await results.getByRole('row').nth(1).innerText()).toContain(host(gone));
    await form.getByRole('checkbox', { name: 'Show only problems' }).check();
    expect(await results.getByRole('row').count()).toBe(2);
    await saveScreenshot(page, 'csv-150-results', { fullPage: false });
    await expectAccessible(page, 'CSV import of 150, results');
    expect(browser.errors).toEqual([]);
  });
});
