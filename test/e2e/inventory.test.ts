/**
 * The fleet inventory in Chromium (issue 16 item 9): one table of every controller, sorted by any column
 * (aria-sort), firmware drift highlighted, last known values of an offline unit marked, and the CSV export.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { downloadText, saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, UI_TIMEOUT, waitForStatus } from './ui';

function table(page: Page): Locator {
  return page.getByRole('table', { name: 'Inventory' });
}

/** The controller names down the table, top to bottom. */
async function order(page: Page): Promise<string[]> {
  const names = await table(page).locator('tbody th[scope="row"]').allInnerTexts();
  return names.map((name) => name.replace(/ \(last known.*\)$/, '').trim());
}

describe('The inventory in Chromium', () => {
  let lab: Lab;
  let older: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    const newer = await lab.emulator({ model: 'LPC9', serial: 'LPC9000201', firmware: '1.10.2.0' });
    older = await lab.emulator({ model: 'LPC9', serial: 'LPC9000202', firmware: '1.9.8.0' });
    const other = await lab.emulator({ model: 'LPC7', serial: 'LPC7000203', firmware: '1.8.0.0' });
    older.device.setConfig({ sshEnabled: true });
    await lab.add(newer, 'Bench new');
    await lab.add(older, 'Bench old');
    await lab.add(other, 'Rack other');
    browser = await lab.openWindow();
    for (const name of ['Bench new', 'Bench old', 'Rack other'])
      await waitForStatus(browser.page, name, 'online');
  });
  afterAll(() => lab?.close());

  it('lists every controller with its firmware and highlights the one behind on its model', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Inventory' }).click();
    await eventually(() => order(page)).toEqual(['Bench new', 'Bench old', 'Rack other']);
    const old = table(page).getByRole('row', { name: /Bench old/ });
    const drift = old.locator('td.drift');
    await expect(drift.count()).resolves.toBe(1);
    expect(await drift.innerText()).toContain('1.9.8.0');
    expect(await drift.getAttribute('title')).toBe(
      'Older than 1.10.2.0, the newest firmware on another LPC9 here',
    );
    // Another model is never drift; the newest is not either.
    expect(
      await table(page)
        .getByRole('row', { name: /Rack other/ })
        .locator('td.drift')
        .count(),
    ).toBe(0);
    expect(
      await table(page)
        .getByRole('row', { name: /Bench new/ })
        .locator('td.drift')
        .count(),
    ).toBe(0);
    // SSH and users arrive (read for the inventory if not yet).
    await eventually(() => old.innerText()).toMatch(/LPC9000202\s+1\.9\.8\.0[\s\S]*on\s+1\s+\d of 8/);
    await saveScreenshot(page, 'inventory');
    await expectAccessible(page, 'Inventory');
  });

  it('sorts by any column both ways, saying so with aria-sort', async () => {
    const { page } = browser;
    const firmware = table(page).getByRole('columnheader', { name: 'Firmware', exact: true });
    await firmware.getByRole('button').click();
    expect(await firmware.getAttribute('aria-sort')).toBe('ascending');
    expect(
      await table(page).getByRole('columnheader', { name: 'Controller' }).getAttribute('aria-sort'),
    ).toBe('none');
    // Numerically: 1.8 < 1.9.8 < 1.10.2.
    expect(await order(page)).toEqual(['Rack other', 'Bench old', 'Bench new']);
    await firmware.getByRole('button').click();
    expect(await firmware.getAttribute('aria-sort')).toBe('descending');
    expect(await order(page)).toEqual(['Bench new', 'Bench old', 'Rack other']);
    const serial = table(page).getByRole('columnheader', { name: 'Serial' });
    await serial.getByRole('button').click();
    expect(await serial.getAttribute('aria-sort')).toBe('ascending');
    expect(await order(page)).toEqual(['Rack other', 'Bench new', 'Bench old']);
    // Focus stays on the header pressed.
    expect(await serial.getByRole('button').evaluate((b) => b === document.activeElement)).toBe(true);
  });

  it('exports the inventory as CSV', async () => {
    const { page } = browser;
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: UI_TIMEOUT }),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^plugboard-inventory-.+\.csv$/);
    const lines = (await downloadText(download)).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'controller,status,last_known,model,serial,firmware,newer_firmware_on_model,relay_firmware,newer_relay_firmware_on_model,ssh,users,outlets_on,outlets,last_seen',
    );
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith('Bench old,'))).toMatch(
      /^Bench old,online,no,LPC9,LPC9000202,1\.9\.8\.0,1\.10\.2\.0,1\.3\.1,,on,1,\d,8,\d{4}-[\d-]+T[\d:.]+Z$/,
    );
  });

  it('keeps the last known values of a controller that went offline, marked as such', async () => {
    const { page } = browser;
    await older.close();
    const old = table(page).getByRole('row', { name: /Bench old/ });
    await eventually(() => old.locator('th').innerText(), 40_000).toMatch(/\(last known, offline\)/);
    expect(await old.innerText()).toContain('LPC9000202');
    expect(await old.innerText()).toContain('1.9.8.0');
  });

  it('shows every column, Last seen included, without scrolling sideways at 1280 px, a last-known row too', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    const region = page.getByRole('region', { name: 'Inventory table' });
    const lastSeen = table(page).getByRole('columnheader', { name: 'Last seen' });
    const [area, header] = await Promise.all([region.boundingBox(), lastSeen.boundingBox()]);
    expect(header!.x + header!.width).toBeLessThanOrEqual(area!.x + area!.width);
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const seen = table(page)
      .getByRole('row', { name: /Bench new/ })
      .getByRole('cell')
      .last();
    expect(await seen.innerText()).toMatch(/\d/);
  });
});
