/**
 * Adding controllers through the "+" page in Chromium: what the form refuses, the error a person sees
 * for a wrong password and for an address where nothing answers, a successful add that opens the new
 * tab live, and an HTTPS controller whose certificate fingerprint is accepted first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { QUICK_EMULATOR, startLab, type Lab } from './lab';
import { controllerTab, eventually, mainText, outletRow, sectionTab, UI_TIMEOUT } from './ui';
import type { Page } from 'playwright-core';

function form(page: Page) {
  return page.getByRole('form', { name: 'By address' });
}

async function fillForm(
  page: Page,
  fields: { address: string; name?: string; user?: string; password: string },
) {
  const add = form(page);
  await add.getByRole('textbox', { name: 'Address' }).fill(fields.address);
  await add.getByRole('textbox', { name: 'Name in Plugboard (optional)' }).fill(fields.name ?? '');
  await add.getByRole('textbox', { name: 'User' }).fill(fields.user ?? 'admin');
  await add.getByLabel('Password', { exact: true }).fill(fields.password);
}

async function savedControllers(lab: Lab) {
  return (await lab.core.handlers['controllers/list']({})).map((c) => c.name);
}

/**
 * The tests run in order in one window: the first needs an empty Plugboard, and later ones see the controllers
 * earlier ones added (or failed to add).
 */
describe('Adding a controller in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    browser = await lab.openWindow();
  });
  afterAll(() => lab?.close());

  it('starts empty, with the way to add a controller or try the demo', async () => {
    const { page } = browser;
    await page.getByRole('heading', { name: 'No controllers yet' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await page.getByRole('button', { name: 'Try the demo' }).isVisible()).toBe(true);
    await saveScreenshot(page, 'empty');
    await expectAccessible(page, 'The empty window');
    await page.getByRole('button', { name: 'Add controller' }).click();
    await form(page).waitFor({ timeout: UI_TIMEOUT });
    await saveScreenshot(page, 'add');
    await expectAccessible(page, 'Add a controller');
  });

  it('says what is missing before sending anything', async () => {
    const { page } = browser;
    await fillForm(page, { address: '', password: '' });
    await form(page).getByRole('button', { name: 'Add this controller' }).click();
    await eventually(() => form(page).innerText()).toContain('Enter the controller’s address');
    expect(await form(page).innerText()).toContain('Enter the password.');
    expect(await form(page).getByRole('textbox', { name: 'Address' }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await savedControllers(lab)).toEqual([]);
  });

  it('explains a wrong password in words, and saves nothing', async () => {
    const { page } = browser;
    const bench = await lab.emulator({ name: 'Bench A' });
    await fillForm(page, {
      address: bench.url.replace('http://', ''),
      name: 'Bench A',
      password: 'not-the-password',
    });
    await form(page).getByRole('button', { name: 'Add this controller' }).click();
    const alert = form(page).getByRole('alert');
    await eventually(() => alert.innerText(), 30_000).toContain('Wrong user name or password for');
    const text = (await alert.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain(`${bench.url} was not added.`);
    expect(text).toContain('What to do: Correct the user name or password above');
    expect(await alert.getAttribute('data-code')).toBe('AUTH_FAILED');
    expect(bench.device.stats.unauthorized).toBeGreaterThan(0);
    expect(await savedControllers(lab)).toEqual([]);
    expect(await page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab').count()).toBe(0);
    await saveScreenshot(page, 'add-wrong-password');
    await expectAccessible(page, 'Add a controller, wrong password');
  });

  it('says so when nothing answers at the address', async () => {
    const { page } = browser;
    const gone = await startEmulator({ ...QUICK_EMULATOR, port: 0 });
    const address = gone.url;
    await gone.close();
    await fillForm(page, { address, password: '1234' });
    await form(page).getByRole('button', { name: 'Add this controller' }).click();
    const alert = form(page).getByRole('alert');
    await eventually(() => alert.getAttribute('data-code'), 30_000).toBe('UNREACHABLE');
    expect(await alert.innerText()).toContain('Cannot reach');
    expect(await savedControllers(lab)).toEqual([]);
  });

  it('adds a controller: its tab opens, online, with the outlets read from it', async () => {
    const { page } = browser;
    const bench = await lab.emulator({ name: 'Bench A' });
    bench.device.setOutlet(2, { name: 'Scope' });
    await fillForm(page, { address: bench.url, name: 'Bench A', password: '1234' });
    await form(page).getByRole('button', { name: 'Add this controller' }).click();
    const tab = controllerTab(page, 'Bench A');
    await tab.waitFor({ timeout: 30_000 });
    await eventually(() => tab.getAttribute('aria-selected')).toBe('true');
    await eventually(() => tab.innerText()).toContain('Bench A');
    await eventually(() => tab.textContent()).toContain('online');
    expect(await sectionTab(page, 'Bench A', 'Outlets').getAttribute('aria-selected')).toBe('true');
    await outletRow(page, 3, 'Scope').waitFor({ timeout: UI_TIMEOUT });
    expect(
      await page
        .getByRole('listitem')
        .filter({ has: page.getByRole('switch', { name: /^Power of / }) })
        .count(),
    ).toBe(bench.device.outletCount);
    const saved = await lab.core.handlers['controllers/list']({});
    expect(saved).toEqual([
      expect.objectContaining({ name: 'Bench A', url: bench.url, user: 'admin', hasSecret: true }),
    ]);
    expect(JSON.stringify(saved)).not.toContain('1234');
  });

  it('adds an HTTPS controller once its certificate fingerprint is accepted', async () => {
    const { page } = browser;
    const secure = await lab.emulator({ name: 'Secure rack', tls: true });
    await page.getByRole('button', { name: 'Add controller' }).click();
    await form(page)
      .getByRole('radio', { name: /^https/ })
      .check();
    await fillForm(page, {
      address: secure.url.replace('https://', ''),
      name: 'Secure rack',
      password: '1234',
    });
    await form(page).getByRole('button', { name: 'Add this controller' }).click();
    const trust = form(page).getByRole('alert');
    await eventually(() => trust.innerText(), 30_000).toContain('Check this controller’s certificate.');
    const shown = (await trust.locator('code').innerText()).trim();
    expect(shown.replace(/:/g, '').toUpperCase()).toBe(
      secure.device.certificate!.fingerprint256.replace(/:/g, '').toUpperCase(),
    );
    await saveScreenshot(page, 'add-certificate');
    await expectAccessible(page, 'Add a controller, certificate to accept');
    await trust.getByRole('button', { name: 'Accept and add' }).click();
    const tab = controllerTab(page, 'Secure rack');
    await tab.waitFor({ timeout: 30_000 });
    await eventually(() => tab.textContent()).toContain('online');
    const saved = (await lab.core.handlers['controllers/list']({})).find((c) => c.name === 'Secure rack');
    expect(saved?.fingerprint?.replace(/:/g, '').toUpperCase()).toBe(
      secure.device.certificate!.fingerprint256.replace(/:/g, '').toUpperCase(),
    );
    expect(await mainText(page)).toContain('Secure rack');
    expect(browser.errors).toEqual([]);
  });

  it('tries the demo from the "+" page, and removes it from the Overview', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Add controller' }).click();
    await page.getByRole('button', { name: 'Try the demo' }).click();
    const tabs = page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab');
    await eventually(() => tabs.count(), 30_000).toBe(5);
    const opened = page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab', { selected: true });
    await eventually(async () => (await opened.textContent())?.trim()).toMatch(/^Demo bench/);
    await eventually(() => opened.textContent(), 30_000).toContain('online');
    expect(await mainText(page)).toContain('demo controller');

    await page
      .getByRole('navigation', { name: 'Controllers and pages' })
      .getByRole('button', { name: 'Overview' })
      .click();
    await page.getByRole('button', { name: 'Remove the demo controllers' }).click();
    await eventually(() => tabs.allInnerTexts()).toEqual([
      expect.stringContaining('Bench A'),
      expect.stringContaining('Secure rack'),
    ]);
    expect((await lab.core.handlers['controllers/list']({})).some((c) => c.demo)).toBe(false);
    expect(browser.errors).toEqual([]);
  });
});
