/**
 * Issue 16 item 4 in Chromium: a restart without a keychain (a new Core on the same settings, its
 * secrets gone) shows "password needed" — not a wrong password — sends nothing to the controllers, and
 * one prompt per user connects every controller that takes the password; the one that does not stays
 * and says so. The System tab then says the password is kept for this session only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core, MemoryStore } from '../../src-main/core/index';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator/index';
import { MemorySecretStore } from '../../src-main/secrets';
import { expectAccessible } from './a11y';
import {
  launchBrowser,
  packageVersion,
  saveScreenshot,
  startWebApp,
  type BrowserSession,
  type WebApp,
} from './harness';
import { QUICK_EMULATOR } from './lab';
import { eventually, mainText, openApp, openSection, UI_TIMEOUT, waitForStatus } from './ui';

const NAMES = ['Bench A', 'Bench B', 'Bench C', 'Bench D'];

describe('password needed in Chromium', () => {
  const emulators: RunningEmulator[] = [];
  let core: Core;
  let app: WebApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    const store = new MemoryStore();
    const before = createCore({
      shell: 'web',
      version: packageVersion,
      store,
      secrets: new MemorySecretStore(),
      dataDir: null,
      log: () => undefined,
    });
    for (const [i, name] of NAMES.entries()) {
      const password = i === 3 ? 'bench-d-pw' : '1234';
      const emu = await startEmulator({ ...QUICK_EMULATOR, host: '127.0.0.1', port: 0, password });
      emulators.push(emu);
      await before.handlers['controllers/add']({
        name,
        url: emu.url,
        auth: { kind: 'digest', user: 'admin', password },
      });
    }
    await before.dispose();
    for (const emu of emulators) emu.device.stats.reset();
    // The restart: the same settings, and no keychain kept the passwords.
    core = createCore({
      shell: 'web',
      version: packageVersion,
      store,
      secrets: new MemorySecretStore(),
      dataDir: null,
      log: () => undefined,
    });
    app = await startWebApp({ core });
    browser = await launchBrowser();
    await openApp(browser.page, app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await core?.dispose();
    await Promise.all(emulators.map((e) => e.close().catch(() => undefined)));
  });

  it('asks once for the password of admin on all four, and nothing was sent to them', async () => {
    const { page } = browser;
    const prompt = page.getByRole('group', { name: 'Enter the password for admin on 4 controllers' });
    await prompt.waitFor({ timeout: UI_TIMEOUT });
    for (const name of NAMES) await waitForStatus(page, name, 'password needed');
    expect(await mainText(page)).not.toMatch(/rejected|does not accept|did not accept/);
    // The prompt covers them: the Overview's "Needs attention" does not list them again, one by one.
    expect(await mainText(page)).toContain('Nothing needs attention');
    for (const emu of emulators) expect(emu.device.stats.requests).toBe(0);
    await saveScreenshot(page, 'password-needed');
    await expectAccessible(page, 'Password needed prompt');
  });

  it('connects every controller that takes the password; the other stays and says so', async () => {
    const { page } = browser;
    const prompt = page.getByRole('group', { name: 'Enter the password for admin on 4 controllers' });
    await prompt.getByLabel('Password for admin').fill('1234');
    await prompt.getByRole('button', { name: 'Connect' }).click();
    const status = page.getByRole('region', { name: 'Passwords needed' }).getByRole('status');
    await eventually(() => status.innerText()).toContain('Connected 3 of 4 controllers.');
    expect(await status.innerText()).toContain(
      'Bench D did not accept this password for admin; it still needs one.',
    );
    for (const name of NAMES.slice(0, 3)) await waitForStatus(page, name, 'online');
    await waitForStatus(page, 'Bench D', 'password needed');
    await page
      .getByRole('group', { name: 'Enter the password for admin on Bench D' })
      .waitFor({ timeout: UI_TIMEOUT });
    await expectAccessible(page, 'Password needed, one left');
    const last = page.getByRole('group', { name: 'Enter the password for admin on Bench D' });
    await last.getByLabel('Password for admin').fill('bench-d-pw');
    await last.getByRole('button', { name: 'Connect' }).click();
    await eventually(() => status.innerText()).toContain('Connected Bench D.');
    await waitForStatus(page, 'Bench D', 'online');
    await status.getByRole('button', { name: 'Dismiss' }).click();
    await page
      .getByRole('region', { name: 'Passwords needed' })
      .waitFor({ state: 'detached', timeout: UI_TIMEOUT });

    await openSection(page, 'Bench A', 'System');
    await eventually(() => mainText(page)).toContain('The password is kept for this session only');
    expect(await mainText(page)).not.toContain('saved in the system keychain');
    expect(browser.errors).toEqual([]);
  });
});
