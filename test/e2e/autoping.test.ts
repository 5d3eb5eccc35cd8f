/**
 * The AutoPing tab in Chromium (issue 14 item 5): shown only on a unit that has AutoPing; adding an item
 * through the form (checked on the controller, outlets 1-based), its status following the simulated
 * pings, disabling it, and deleting it after confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { controllerTab, dialog, eventually, openSection, sectionTab, UI_TIMEOUT } from './ui';

describe('AutoPing in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let plain: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A', outlets: 8, autoping: true });
    bench.device.setOutlet(1, { name: 'Modem' });
    plain = await lab.emulator({ name: 'Plain' });
    await lab.add(bench, 'Bench A');
    await lab.add(plain, 'Plain');
    browser = await lab.openWindow();
  });
  afterAll(() => lab?.close());

  it('shows the AutoPing tab only on the unit that has AutoPing', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'AutoPing');
    await page.getByText('No AutoPing items on Bench A yet.').waitFor({ timeout: UI_TIMEOUT });
    await controllerTab(page, 'Plain').click();
    await sectionTab(page, 'Plain', 'Outlets').waitFor({ timeout: UI_TIMEOUT });
    // The window asked the unit whether it has AutoPing; wait for its 404 before looking at the tabs.
    await eventually(() =>
      plain.device.stats.log.some((e) => e.path === '/restapi/autoping/' && e.status === 404),
    ).toBe(true);
    await eventually(() => sectionTab(page, 'Plain', 'System').count()).toBe(1);
    expect(await sectionTab(page, 'Plain', 'AutoPing').count()).toBe(0);
  });

  it('adds an item through the form, and its status follows the pings', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'AutoPing');
    await page.getByRole('button', { name: 'Add item' }).click();
    const form = page.getByRole('form', { name: 'New AutoPing item' });
    await form.getByRole('button', { name: 'Add item' }).click();
    await eventually(() => form.innerText()).toContain('Enter at least one address to ping.');
    expect(bench.device.autoping().items).toEqual([]);
    await form.getByRole('textbox', { name: /Addresses to ping/ }).fill('10.0.0.5, modem.lan');
    await form.getByRole('checkbox', { name: '2 Modem' }).check();
    await form.getByRole('textbox', { name: /Answered pings/ }).fill('1');
    await form.getByRole('button', { name: 'Add item' }).click();
    await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    expect(bench.device.autoping().items).toEqual([
      expect.objectContaining({
        addresses: ['10.0.0.5', 'modem.lan'],
        outlets: [1],
        enabled: true,
        pings_before_enabling: 1,
        status: 'waiting',
      }),
    ]);
    const row = page.getByRole('row', { name: /10\.0\.0\.5, modem\.lan/ });
    await eventually(() => row.innerText()).toContain('Waiting for answers');

    bench.device.autopingAnswers('modem.lan', true);
    bench.device.autopingTick();
    // The panel reads the list when it opens: leave and come back.
    await openSection(page, 'Bench A', 'Outlets');
    await openSection(page, 'Bench A', 'AutoPing');
    await eventually(() => row.innerText()).toContain('Answering');
    await saveScreenshot(page, 'autoping');
    await expectAccessible(page, 'AutoPing');
  });

  it('disables the item, then deletes it after confirmation', async () => {
    const { page } = browser;
    await page.getByRole('checkbox', { name: 'AutoPing item 1 enabled' }).uncheck();
    await eventually(() => bench.device.autoping().items[0]?.enabled).toBe(false);
    await eventually(() => page.getByRole('row', { name: /modem\.lan/ }).innerText()).toContain('Disabled');

    await page.getByRole('button', { name: 'Delete AutoPing item 1' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Delete AutoPing item 1 from Bench A?');
    await confirm.getByRole('button', { name: 'Delete item' }).click();
    await eventually(() => bench.device.autoping().items).toEqual([]);
    await page.getByText('No AutoPing items on Bench A yet.').waitFor({ timeout: UI_TIMEOUT });
    expect(browser.errors).toEqual([]);
  });
});
