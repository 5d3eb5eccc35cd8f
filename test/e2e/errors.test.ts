/**
 * Trouble, as a person at the bench sees it in Chromium: a controller that goes offline (its tab, its
 * header, the Overview's problems, controls disabled with the reason) and comes back; an outlet locked
 * on the controller behind Plugboard's back (the LOCKED message in place); a saved password that stops
 * working, fixed from the System tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import {
  controllerTab,
  eventually,
  mainText,
  openOverview,
  openSection,
  outletRow,
  physicalShown,
  UI_TIMEOUT,
  waitForStatus,
} from './ui';

/**
 * The tests run in order in one window against the same two emulators: each starts from the page and the
 * controllers' states the one before left.
 */
describe('Errors in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let rack: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A' });
    rack = await lab.emulator({ name: 'Rack 7', meters: false });
    bench.device.setOutlet(1, { name: 'Scope' });
    await lab.add(bench, 'Bench A');
    await lab.add(rack, 'Rack 7');
    browser = await lab.openWindow();
    await waitForStatus(browser.page, 'Rack 7', 'online');
  });
  afterAll(() => lab?.close());

  it('shows a controller that went offline: tab, header, Overview problems, disabled controls', async () => {
    const { page } = browser;
    await openSection(page, 'Rack 7', 'Outlets');
    await outletRow(page, 1, 'Outlet 1').waitFor({ timeout: UI_TIMEOUT });
    await rack.device.goOffline();

    const tab = controllerTab(page, 'Rack 7');
    await eventually(() => tab.textContent(), 30_000).toContain('offline');
    await eventually(() => mainText(page)).toMatch(/Rack 7 is offline( \([a-z ]+\))? /);
    const problem = page.getByRole('main').locator('[data-code]').first();
    expect(await problem.getAttribute('data-code')).toMatch(/^(UNREACHABLE|TIMEOUT)$/);
    // What to do is main's action for this error, in place of the general advice for the code; and it
    // says that Plugboard keeps trying (it does: polling goes on while a controller is offline).
    expect(await mainText(page)).toMatch(
      /Plugboard keeps trying\. Check (the address and )?that (the controller|it) is powered/,
    );
    expect(await mainText(page)).not.toMatch(/has power and a network cable|wait a moment and retry/);
    // The last known outlets stay in view, but nothing can be switched until it answers.
    const off = outletRow(page, 1, 'Outlet 1').getByRole('switch', { name: 'Power of outlet 1' });
    await eventually(() => off.isDisabled()).toBe(true);
    // Said once above the outlets, and read with every control.
    const reason =
      'The controller is offline: Plugboard keeps trying, and controls come back when it answers again.';
    const shown = await page
      .getByText(reason, { exact: true })
      .evaluateAll((found) => found.filter((el) => !el.classList.contains('sr-only')).length);
    expect(shown).toBe(1);
    // The switch's description: the three states, then why it cannot be pressed.
    expect(
      await off.evaluate((el) =>
        el
          .getAttribute('aria-describedby')!
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .at(-1),
      ),
    ).toBe(reason);
    // The last known states stay readable but lose their colour, so nobody mistakes them for live ones.
    expect(await page.getByText('The outlet states below are the last ones it reported.').isVisible()).toBe(
      true,
    );
    const indicator = outletRow(page, 1, 'Outlet 1').locator('.physical');
    expect(await indicator.evaluate((el) => getComputedStyle(el).filter)).toBe('grayscale(1)');
    await saveScreenshot(page, 'offline');
    await expectAccessible(page, 'An offline controller');

    await openOverview(page);
    const attention = page.getByRole('region', { name: 'Needs attention' });
    await attention.waitFor({ timeout: UI_TIMEOUT });
    await eventually(async () => (await attention.innerText()).replace(/\s+/g, ' ')).toMatch(
      /Rack 7 is offline( \([a-z ]+\))? /,
    );
    expect(await attention.getByRole('button', { name: 'Open Rack 7' }).isVisible()).toBe(true);
    expect(await attention.innerText()).not.toContain('Bench A');
    await saveScreenshot(page, 'overview-problems');
    await expectAccessible(page, 'Overview with a problem');

    await rack.device.comeBack();
    await eventually(() => tab.textContent(), 90_000).toContain('online');
    await eventually(() => attention.innerText()).toContain('Nothing needs attention');
    await openSection(page, 'Rack 7', 'Outlets');
    expect(await indicator.evaluate((el) => getComputedStyle(el).filter)).toBe('none');
  }, 150_000);

  it('shows the LOCKED message in place when an outlet was locked on the controller meanwhile', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'Outlets');
    const row = outletRow(page, 2, 'Scope');
    await eventually(() => physicalShown(row)).toBe('on');
    // No steady polling: the window still shows the outlet unlocked when the person clicks.
    await lab.core.handlers['settings/set']({ pollIntervalMs: 600_000 });
    try {
      bench.device.lock(1);
      await row.getByRole('switch', { name: 'Power of outlet 2 (Scope)' }).click();
      const alert = row.getByRole('alert');
      await eventually(() => alert.getAttribute('data-code')).toBe('LOCKED');
      const text = (await alert.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('outlet 2 (Scope) did not change.');
      expect(text).toContain('The outlet is locked on the controller.');
      expect(text).toContain("What to do: Unlock it on the keypad or the controller's own web page.");
      expect(text).not.toContain(
        'Only the controller’s keypad or its own web page can change a locked outlet.',
      );
      expect(bench.device.outlet(1)).toMatchObject({ locked: true, state: true, physicalState: true });
      await saveScreenshot(page, 'locked');
      await expectAccessible(page, 'A locked outlet refused');

      // Once Plugboard has read the lock, the row says so and its controls wait for the keypad.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await eventually(() => row.getByRole('button', { name: 'Locked' }).count()).toBe(1);
      expect(await row.getByRole('switch', { name: 'Power of outlet 2 (Scope)' }).isDisabled()).toBe(true);
      expect(await row.innerText()).toContain('only its keypad or its own web page can change this outlet');
    } finally {
      bench.device.unlock(1);
      await lab.core.handlers['settings/set']({ pollIntervalMs: 1000 });
    }
    await eventually(() => row.getByRole('switch', { name: 'Power of outlet 2 (Scope)' }).isDisabled()).toBe(
      false,
    );
  });

  it('shows a saved password that no longer works, and takes a new one on the System tab', async () => {
    const { page } = browser;
    bench.device.setPassword('admin', 'rotated-at-noon');
    bench.device.expireNonces();
    const tab = controllerTab(page, 'Bench A');
    await eventually(() => tab.textContent(), 30_000).toContain('auth problem');
    await eventually(() => mainText(page)).toContain(
      'Bench A does not accept the saved login (user "admin")',
    );
    expect(await mainText(page)).toContain('Plugboard stopped trying, so the user is not locked out');

    await openSection(page, 'Bench A', 'System');
    const connection = page.getByRole('form', { name: 'Connection' });
    await connection.getByLabel('New password').fill('rotated-at-noon');
    await connection.getByRole('button', { name: 'Save connection' }).click();
    await eventually(() => connection.innerText()).toContain(
      'Saved. Plugboard reconnects with the new settings.',
    );
    await eventually(() => tab.textContent(), 30_000).toContain('online');
    expect(await mainText(page)).not.toContain('does not accept the saved login');
    expect(browser.errors).toEqual([]);
  });
});
