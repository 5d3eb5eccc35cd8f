/**
 * Issue 16 item 1 in Chromium: one meaning for "on". The selection's switches are saved by default (one
 * matrix PUT of `state`) and temporary only when asked (one `set_outlet_transient_states`); the
 * confirmation, the result line and the activity log say which, and a controller restart shows it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import type { ActivityEntry } from '../../src-preload/contract';
import { expectAccessible } from './a11y';
import type { BrowserSession } from './harness';
import { startLab, writes, type Lab } from './lab';
import { dialog, eventually, openSection, outletRow, physicalShown, UI_TIMEOUT, waitForStatus } from './ui';

const NAMES = ['Router', 'Switch', 'Scope', 'Signal generator', 'Lamp', 'Fan', 'Charger', 'Spare'];

async function select(page: Page, numbers: number[]): Promise<void> {
  for (const [i, name] of NAMES.entries()) {
    const box = page.getByRole('checkbox', { name: `Select outlet ${i + 1} (${name})` });
    await (numbers.includes(i + 1) ? box.check() : box.uncheck());
  }
}

/** The line under the toolbar that says how the last selection switch went. */
function resultLine(page: Page) {
  return page.getByRole('status').filter({ hasText: /outlets? (switched|flipped)/ });
}

describe('Saved or temporary, in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;
  let controllerId: string;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A', initialStates: Array(8).fill(false) });
    NAMES.forEach((name, index) => bench.device.setOutlet(index, { name }));
    controllerId = (await lab.add(bench, 'Bench A')).id;
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Outlets');
    await outletRow(browser.page, 1, 'Router').waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  const activity = async (): Promise<[number | null, string][]> =>
    ((await lab.core.handlers['activity/list']({ controllerId })) as ActivityEntry[])
      .filter((e) => e.outlet !== null)
      .map((e) => [e.outlet, e.action]);

  it('switches the selection on SAVED by default: says so, sends one matrix PUT of state', async () => {
    const { page } = browser;
    await select(page, [2, 3]);
    await bench.device.whenSettled();
    bench.device.stats.reset();
    const selectedOn = page
      .getByRole('group', { name: 'Switch selected' })
      .getByRole('button', { name: 'Selected on' });
    await selectedOn.click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Switch 2 outlets on (saved)?');
    expect(await confirm.innerText()).toContain(
      'The change is saved: they stay so when the controller restarts.',
    );
    await expectAccessible(page, 'Saved selection confirmation');
    await confirm.getByRole('button', { name: 'Switch on, saved' }).click();

    await eventually(() => resultLine(page).innerText()).toMatch(
      /^2 of 2 outlets switched on, saved: they stay so when the controller restarts/,
    );
    // Back from the confirmation, focus is on the button that asked (not on the page).
    expect(await selectedOn.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(writes(bench).map((w) => `${w.method} ${w.path}`)).toEqual([
      'PUT /restapi/relay/outlets/=1,2/state/',
    ]);
    for (const [n, name] of [
      [2, 'Switch'],
      [3, 'Scope'],
    ] as const)
      await eventually(() => physicalShown(outletRow(page, n, name))).toBe('on');
    expect(bench.device.outlets().map((o) => o.state)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    await eventually(activity).toEqual([
      [3, 'on'],
      [2, 'on'],
    ]);
  });

  it('switches the selection on TEMPORARILY when asked: says so, sends one simultaneous switch', async () => {
    const { page } = browser;
    await select(page, [5, 6]);
    await page
      .getByRole('checkbox', {
        name: 'Switch the selected outlets temporarily (until the controller restarts)',
      })
      .check();
    await bench.device.whenSettled();
    bench.device.stats.reset();
    await page.getByRole('button', { name: 'Selected on' }).click();
    const confirm = dialog(page);
    await confirm.waitFor({ timeout: UI_TIMEOUT });
    expect(await confirm.getByRole('heading').innerText()).toBe('Switch 2 outlets on (temporary)?');
    expect(await confirm.innerText()).toContain(
      'The change is temporary: they go back to their saved states when the controller restarts.',
    );
    await confirm.getByRole('button', { name: 'Switch on, temporary' }).click();

    await eventually(() => resultLine(page).innerText()).toMatch(
      /^2 of 2 outlets switched on, temporary: they go back to their saved states when the controller restarts/,
    );
    expect(writes(bench).map((w) => `${w.method} ${w.path}`)).toEqual([
      'POST /restapi/relay/set_outlet_transient_states/',
    ]);
    await eventually(() => physicalShown(outletRow(page, 5, 'Lamp'))).toBe('on');
    await eventually(() => outletRow(page, 5, 'Lamp').innerText()).toContain(
      'Temporarily on: saved state off',
    );
    expect(bench.device.outlet(4)).toMatchObject({ state: false, transientState: true });
    await eventually(activity).toEqual([
      [6, 'on (temporary)'],
      [5, 'on (temporary)'],
      [3, 'on'],
      [2, 'on'],
    ]);
    await page
      .getByRole('checkbox', {
        name: 'Switch the selected outlets temporarily (until the controller restarts)',
      })
      .uncheck();
  });

  it('after the controller restarts, the saved outlets are still on and the temporary ones are off', async () => {
    const { page } = browser;
    await bench.device.reboot();
    await waitForStatus(page, 'Bench A', 'online');
    await eventually(() => physicalShown(outletRow(page, 5, 'Lamp'))).toBe('off');
    await eventually(() => physicalShown(outletRow(page, 6, 'Fan'))).toBe('off');
    expect(await physicalShown(outletRow(page, 2, 'Switch'))).toBe('on');
    expect(await physicalShown(outletRow(page, 3, 'Scope'))).toBe('on');
    expect(browser.errors).toEqual([]);
  });
});
