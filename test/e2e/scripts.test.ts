/**
 * The Scripts tab in Chromium: user functions started with typed arguments (never code), running
 * threads listed as the controller reports them, stop one, stop all with confirmation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { dialog, eventually, openSection, UI_TIMEOUT } from './ui';

function threadsTable(page: Page) {
  return page.getByRole('region', { name: 'Scripts of Bench A' }).getByRole('table');
}

/** Open the start form of `fn` and type its arguments as numbers. */
async function startForm(page: Page, fn: string, numbers: string[]) {
  await page.getByRole('button', { name: `Start ${fn}…` }).click();
  const form = page.getByRole('form', { name: `Start ${fn}` });
  for (const [index, value] of numbers.entries()) {
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByRole('textbox', { name: `Argument ${index + 1} value` }).fill(value);
  }
  return form;
}

/**
 * The tests run in order against one emulator: "stops one thread…" expects the thread that "starts a
 * function…" left running.
 */
describe('Scripts in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A' });
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Scripts');
    await browser.page.getByRole('heading', { name: 'User functions' }).waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('lists the user functions of the controller, and no thread yet', async () => {
    const { page } = browser;
    const functions = await page
      .getByRole('region', { name: 'Scripts of Bench A' })
      .locator('li code')
      .allInnerTexts();
    expect(functions).toEqual(['blink_an_outlet', 'cycle_an_outlet', 'flash_a_light']);
    expect(await page.getByText('No script is running.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Stop all' }).isDisabled()).toBe(true);
  });

  it('refuses an argument that is not a number, and builds the call from typed fields', async () => {
    const { page } = browser;
    const form = await startForm(page, 'blink_an_outlet', ['six']);
    await form.getByRole('button', { name: 'Start', exact: true }).click();
    await eventually(() => form.innerText()).toContain('Argument 1: “six” is not a number');
    expect(await form.getByRole('status').innerText()).toBe('blink_an_outlet(?)');
    expect(bench.device.threads()).toEqual([]);
    await form.getByRole('textbox', { name: 'Argument 1 value' }).fill('6');
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByRole('textbox', { name: 'Argument 2 value' }).fill('0.25');
    await eventually(() => form.getByRole('status').innerText()).toBe('blink_an_outlet(6, 0.25)');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  });

  it('starts a function with arguments: the thread runs on the controller and is listed', async () => {
    const { page } = browser;
    const form = await startForm(page, 'blink_an_outlet', ['6', '0.25']);
    const before = bench.device.outlet(5).transientState;
    await form.getByRole('button', { name: 'Start', exact: true }).click();
    await eventually(() => bench.device.threads().length).toBe(1);
    const [thread] = bench.device.threads();
    await eventually(() =>
      page.getByRole('status').filter({ hasText: 'blink_an_outlet started' }).innerText(),
    ).toBe(`blink_an_outlet started as thread ${thread!.id}.`);
    // Outlet 6 (index 5) blinks: the argument reached the controller as a 1-based outlet number.
    await eventually(() => bench.device.outlet(5).transientState).toBe(!before);
    const rows = threadsTable(page).getByRole('row');
    await eventually(() => rows.count()).toBe(2);
    expect(await threadsTable(page).innerText()).toContain(thread!.id);
    await saveScreenshot(page, 'scripts');
    await expectAccessible(page, 'Scripts with a running thread');
  });

  it('stops one thread, then every thread after confirming', async () => {
    const { page } = browser;
    const form = await startForm(page, 'blink_an_outlet', ['7', '0.25']);
    await form.getByRole('button', { name: 'Start', exact: true }).click();
    await eventually(() => bench.device.threads().length).toBe(2);
    await eventually(() => threadsTable(page).getByRole('row').count()).toBe(3);

    const [first, second] = bench.device.threads();
    await page.getByRole('button', { name: new RegExp(`^Stop thread ${first!.id}\\b`) }).click();
    await eventually(() => bench.device.threads().map((t) => t.id)).toEqual([second!.id]);
    await eventually(() => threadsTable(page).getByRole('row').count()).toBe(2);
    expect(await threadsTable(page).innerText()).toContain(second!.id);

    await page.getByRole('button', { name: 'Stop all' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Stop every script on Bench A?');
    await expectAccessible(page, 'Stop all confirmation');
    await confirm.getByRole('button', { name: 'Stop all' }).click();
    await eventually(() => bench.device.threads()).toEqual([]);
    await page.getByText('No script is running.').waitFor({ timeout: UI_TIMEOUT });
    expect(browser.errors).toEqual([]);
  });
});
