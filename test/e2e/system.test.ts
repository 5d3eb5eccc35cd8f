/**
 * The System tab in Chromium: identity and capabilities as the controller reports them, SSH on and off
 * on the controller, a reboot followed to its end (rebooting, then back online, temporary states
 * reverted), the API tree, and removing the controller from Plugboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import {
  controllerTab,
  dialog,
  eventually,
  openSection,
  outletRow,
  physicalShown,
  recordChanges,
  UI_TIMEOUT,
  waitForStatus,
  type PageMoment,
} from './ui';

/**
 * The tests run in order against one saved controller: removing it comes last, every test before needs it.
 */
describe('System in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A', model: 'LPC9', firmware: '1.12.14.0', rebootSeconds: 3 });
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'System');
    await browser.page.getByRole('heading', { name: 'Capabilities' }).waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('shows what the controller says about itself', async () => {
    const { page } = browser;
    const system = page.getByRole('region', { name: 'System of Bench A' });
    await eventually(() => system.innerText()).toContain(bench.device.serial);
    const text = (await system.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Model LPC9');
    expect(text).toContain('Firmware 1.12.14.0');
    expect(text).toContain(`Serial number ${bench.device.serial}`);
    expect(text).toContain('Switches outlets simultaneously yes');
    expect(text).toContain('Reboot from Plugboard yes');
    expect(text).toContain(`Outlets ${bench.device.outletCount}`);
    await saveScreenshot(page, 'system');
    await expectAccessible(page, 'System');
  });

  it('switches SSH on and off on the controller', async () => {
    const { page } = browser;
    const ssh = page.getByRole('switch', { name: 'SSH access to the controller' });
    await eventually(() => ssh.isDisabled()).toBe(false);
    expect(bench.device.config().sshEnabled).toBe(false);
    expect(await ssh.getAttribute('aria-checked')).toBe('false');
    await ssh.click();
    await eventually(() => bench.device.config().sshEnabled).toBe(true);
    await eventually(() => ssh.getAttribute('aria-checked')).toBe('true');
    await ssh.click();
    await eventually(() => bench.device.config().sshEnabled).toBe(false);
    await eventually(() => ssh.getAttribute('aria-checked')).toBe('false');
  });

  it('reboots after confirmation, shows the progress, and comes back online', async () => {
    const { page } = browser;
    // A temporary state, to see the reboot revert it.
    await openSection(page, 'Bench A', 'Outlets');
    await outletRow(page, 1, 'Outlet 1').getByRole('button', { name: 'More actions for outlet 1' }).click();
    await page.getByRole('menuitem', { name: /^Switch off temporarily/ }).click();
    await eventually(() => physicalShown(outletRow(page, 1, 'Outlet 1'))).toBe('off');
    expect(bench.device.outlet(0)).toMatchObject({ state: true, transientState: false });

    await openSection(page, 'Bench A', 'System');
    await page.getByRole('button', { name: 'Reboot controller…' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Reboot Bench A?');
    // It names what the reboot changes: the outlet switched off temporarily goes back on.
    expect(await confirm.innerText()).toContain('One outlet changes: outlet 1 goes back on.');
    // The reboot lasts a few seconds of the controller's time: the page is recorded at every change,
    // so what it showed meanwhile is known however slowly this test looks.
    const record = await recordChanges(page.locator('body'), [
      [page.getByRole('button', { name: 'Reboot controller…' }), 'disabled'],
    ]);
    await confirm.getByRole('button', { name: 'Reboot' }).click();
    const rebooting = (m: PageMoment) =>
      m.text.includes('Rebooting — waiting for the controller to answer again');
    await eventually(async () => (await record.moments()).some(rebooting)).toBe(true);
    // The page as it is now: rebooting still, unless the controller was quicker than the shot.
    await saveScreenshot(page, 'system-rebooting');
    await expectAccessible(page, 'System while rebooting');
    const back = (m: PageMoment) => /Back online after \d+ s\./.test(m.text);
    await eventually(async () => (await record.moments()).some(back), 60_000).toBe(true);
    const moments = await record.stop();
    const during = moments.slice(moments.findIndex(rebooting), moments.findIndex(back));
    // Rebooting, said in the page and on the controller's tab, with the Reboot button disabled throughout.
    expect(during.some((m) => / rebooting\b/.test(m.text))).toBe(true);
    expect(during.filter(rebooting).every((m) => m.attributes[0] !== null)).toBe(true);
    await waitForStatus(page, 'Bench A', 'online');
    expect(bench.device.rebooting).toBe(false);
    // The temporary state did not survive the reboot, on the controller and in the window.
    expect(bench.device.outlet(0)).toMatchObject({ state: true, transientState: true });
    await openSection(page, 'Bench A', 'Outlets');
    await eventually(() => physicalShown(outletRow(page, 1, 'Outlet 1'))).toBe('on');
  }, 90_000);

  it('browses the API tree', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'System');
    const tree = page.getByRole('region', { name: 'API tree' });
    await tree.getByRole('textbox', { name: /^Path/ }).fill('relay/outlets/0/');
    await tree.getByRole('combobox', { name: 'Depth' }).selectOption('1');
    await tree.getByRole('button', { name: 'Load' }).click();
    const root = tree.getByRole('list', { name: 'API tree at /restapi/relay/outlets/0/' });
    await root.waitFor({ timeout: UI_TIMEOUT });
    const text = await root.innerText();
    expect(text).toContain('name');
    expect(text).toContain('"Outlet 1"');
    expect(text).toContain('physical_state');
  });

  it('removes the controller from Plugboard after confirmation, leaving the controller as it is', async () => {
    const { page } = browser;
    const before = bench.device.outlets();
    await page.getByRole('button', { name: 'Remove Bench A…' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await eventually(() => controllerTab(page, 'Bench A').count()).toBe(0);
    await page.getByRole('heading', { name: 'No controllers yet' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await lab.core.handlers['controllers/list']({})).toEqual([]);
    expect(bench.device.outlets()).toEqual(before);
    expect(browser.errors).toEqual([]);
  });
});
