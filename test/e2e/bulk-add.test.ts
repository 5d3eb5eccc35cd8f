/**
 * Bulk add in Chromium (issue 16 item 7): a range probe over 127.0.0.10–40 finds 31 emulated
 * controllers; all but one are ticked and added with one password; nothing reaches the one left out.
 * Then a CSV file through the file input: a preview with each row's problems, and a result per row.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { QUICK_EMULATOR, startLab, type Lab } from './lab';
import { eventually, UI_TIMEOUT } from './ui';

const scratch = mkdtempSync(join(tmpdir(), 'plugboard-e2e-bulk-'));
const units: RunningEmulator[] = [];

/** Emulators on 127.0.0.first…last, all on one port (the range probe asks one port). */
async function rack(first: number, last: number, port = 0): Promise<RunningEmulator[]> {
  const started: RunningEmulator[] = [];
  for (let i = first; i <= last; i++) {
    const unit = await startEmulator({
      ...QUICK_EMULATOR,
      host: `127.0.0.${i}`,
      port: started[0] ? Number(new URL(started[0].url).port) : port,
      name: `Rack ${i}`,
    });
    started.push(unit);
  }
  units.push(...started);
  return started;
}

function discovery(page: Page) {
  return page.getByRole('region', { name: 'Find controllers on the network' });
}

describe('Adding many controllers in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    browser = await lab.openWindow();
  });
  afterAll(async () => {
    await lab?.close();
    await Promise.all(units.map((u) => u.close()));
    rmSync(scratch, { recursive: true, force: true });
  });

  it('probes a range, selects all but one, and adds 30 with one password', async () => {
    const { page } = browser;
    const found = await rack(10, 40);
    const port = new URL(found[0]!.url).port;
    const spare = found.at(-1)!;
    await page.getByRole('button', { name: 'Add controller' }).click();
    const panel = discovery(page);
    // Only the range: mDNS and SSDP would send multicast beyond 127.0.0.0/8.
    await panel.getByRole('checkbox', { name: /mDNS/ }).uncheck();
    await panel.getByRole('checkbox', { name: /SSDP/ }).uncheck();
    await panel.getByRole('textbox', { name: /Address range/ }).fill(`127.0.0.10-127.0.0.40:${port}`);
    await panel.getByRole('button', { name: 'Search' }).click();
    await eventually(() => panel.getByText(/Probed 31 of 31 addresses — done\./).count(), 60_000).toBe(1);
    const selectGroup = panel.getByRole('group', { name: 'Select found controllers' });
    await eventually(() => selectGroup.getByRole('status').innerText()).toBe('0 of 31 selected');
    await selectGroup.getByRole('button', { name: 'Select all' }).click();
    await eventually(() => selectGroup.getByRole('status').innerText()).toBe('31 of 31 selected');
    await panel
      .getByRole('checkbox', { name: new RegExp(`\\(${spare.url.replace(/\./g, '\\.')}\\)`) })
      .uncheck();
    await eventually(() => selectGroup.getByRole('status').innerText()).toBe('30 of 31 selected');
    await selectGroup.getByRole('button', { name: 'Add selected…' }).click();

    const form = page.getByRole('form', { name: 'Add 30 controllers with one login' });
    await form.getByLabel('Password', { exact: true }).fill('1234');
    const spareRequests = spare.device.stats.requests;
    await form.getByRole('button', { name: 'Add 30 controllers' }).click();
    await eventually(() => form.getByRole('status').innerText(), 60_000).toBe('30 of 30 controllers added.');
    const results = form.getByRole('table', { name: 'Results' });
    expect(await results.locator('tr[data-outcome="added"]').count()).toBe(30);
    // The unit's own name and model, read when it was added.
    expect(await results.getByRole('row').nth(1).innerText()).toMatch(
      /Rack 10\s+LPC9\s+Added as “Rack 10”\./,
    );

    const saved = await lab.core.handlers['controllers/list']({});
    expect(saved.map((c) => c.url)).toEqual(found.slice(0, 30).map((u) => u.url));
    expect(saved.every((c) => c.hasSecret && c.user === 'admin')).toBe(true);
    expect(saved[0]!.name).toBe('Rack 10');
    // The added ones are no longer offered; only the one left out is.
    await eventually(() => selectGroup.getByRole('status').innerText()).toBe('0 of 1 selected');
    expect(await panel.getByText('Already in Plugboard').count()).toBe(30);
    // The one left out was never sent anything after the probe.
    expect(spare.device.stats.requests).toBe(spareRequests);
    await saveScreenshot(page, 'bulk-add-results');
    await expectAccessible(page, 'Bulk add results');
  });

  it('imports a CSV file: a preview with each row’s problems, then a result per row', async () => {
    const { page } = browser;
    const fresh = await rack(41, 43);
    const secure = await startEmulator({ ...QUICK_EMULATOR, host: '127.0.0.44', port: 0, tls: true });
    units.push(secure);
    const host = (u: RunningEmulator) => new URL(u.url).host;
    const file = join(scratch, 'lab.csv');
    writeFileSync(
      file,
      [
        'name,address,user,tags',
        `Bench 41,${host(fresh[0]!)},,bench;ci`,
        `Bench 42,${host(fresh[1]!)},,bench`,
        `Bench 43,${host(fresh[2]!)},,`,
        `Secure 44,${secure.url},,`,
        'Broken,ftp://10.0.0.1,,',
        `Again,${host(units[0]!)},,`,
      ].join('\n'),
    );
    const csv = page.getByRole('region', { name: 'Import a CSV file' });
    await csv.getByLabel('CSV file').setInputFiles(file);
    const table = csv.getByRole('table', { name: 'Rows in the file' });
    await table.waitFor({ timeout: UI_TIMEOUT });
    expect(await table.getByRole('row').count()).toBe(7);
    expect(await csv.getByRole('status').first().innerText()).toBe(
      '6 rows: 4 ready to add, 2 with problems (not added).',
    );
    const text = await table.innerText();
    expect(text).toContain('must start with http:// or https://');
    expect(text).toContain('is already saved as "Rack 10"');
    await saveScreenshot(page, 'csv-import-preview');

    const form = csv.getByRole('form', { name: 'Add 4 controllers with one login' });
    await form.getByLabel('Password', { exact: true }).fill('1234');
    await form.getByRole('button', { name: 'Add 4 controllers' }).click();
    // The HTTPS one comes back with its certificate to check; nothing logged in to it yet.
    const review = form.getByRole('region', { name: /Check 1 certificate/ });
    await review.waitFor({ timeout: 60_000 });
    expect(await review.innerText()).toContain(secure.device.certificate!.fingerprint256.slice(0, 23));
    expect(secure.device.stats.unauthorized).toBe(0);
    await saveScreenshot(page, 'bulk-add-certificates');
    await expectAccessible(page, 'Bulk add, certificates to check');
    await review.getByRole('checkbox', { name: /I compared this fingerprint/ }).check();
    await review.getByRole('button', { name: 'Accept 1 certificate and add' }).click();
    await eventually(() => form.getByRole('status').innerText(), 60_000).toBe('4 of 4 controllers added.');
    const results = await form.getByRole('table', { name: 'Results' }).innerText();
    expect(results).toMatch(/Bench 41\s+LPC9\s+Added as “Bench 41”\./);
    const saved = await lab.core.handlers['controllers/list']({});
    expect(saved.find((c) => c.name === 'Bench 41')?.tags).toEqual(['bench', 'ci']);
    expect(saved).toHaveLength(34);
    expect(saved.find((c) => c.url === secure.url)?.fingerprint).toBe(
      secure.device.certificate!.fingerprint256,
    );
    await expectAccessible(page, 'CSV import results');
  });
});
