/**
 * Issue 16's "done when", in Chromium with 200 controllers (emulators on 127.0.0.10–209, real digest
 * auth): a person adds all 200 at once from a range probe with one password, finds one by name in the
 * sidebar and an outlet by name with Ctrl+K, then builds a sequence across three controllers in the group
 * editor and runs it: the outlets come on one step after another, in the editor's order.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src-preload/contract';
import type { BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { startManyControllers, type LabUnit, type ManyControllers } from './lab-200';
import { eventually, UI_TIMEOUT } from './ui';

const COUNT = 200;
/** 200 controllers verified, saved and polled in one process on a shared machine. */
const FLEET_TIMEOUT = 180_000;

function sidebarRows(page: Page) {
  return page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab');
}

function isFocused(page: Page, locator: ReturnType<Page['getByRole']>) {
  return locator.evaluate((el) => el === document.activeElement);
}

describe('A lab of 200 controllers in Chromium', { timeout: 300_000 }, () => {
  let lab: Lab;
  let many: ManyControllers;
  let browser: BrowserSession;
  let unit: (n: number) => LabUnit;

  beforeAll(async () => {
    many = await startManyControllers({
      count: COUNT,
      emulator: { initialStates: Array<boolean>(8).fill(false) },
    });
    unit = (n) => many.units.find((u) => u.name === `Unit ${String(n).padStart(3, '0')}`)!;
    unit(150).emulator.device.setOutlet(0, { name: 'Switch' });
    unit(151).emulator.device.setOutlet(0, { name: 'Server' });
    unit(152).emulator.device.setOutlet(1, { name: 'Scope' });
    // A slow poll: the test is about the window at this scale, not about 200 polls a second.
    lab = await startLab({ pollIntervalMs: 5000 });
    browser = await lab.openWindow();
  }, FLEET_TIMEOUT);
  afterAll(async () => {
    await lab?.close();
    await many?.close();
  });

  it('adds all 200 found by a range probe with one password', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Add controller' }).click();
    const panel = page.getByRole('region', { name: 'Find controllers on the network' });
    // Only the range: mDNS and SSDP would send multicast beyond 127.0.0.0/8.
    await panel.getByRole('checkbox', { name: /mDNS/ }).uncheck();
    await panel.getByRole('checkbox', { name: /SSDP/ }).uncheck();
    await panel.getByRole('textbox', { name: /Address range/ }).fill(many.range);
    await panel.getByRole('button', { name: 'Search' }).click();
    await eventually(
      () => panel.getByText(`Probed ${COUNT} of ${COUNT} addresses — done.`).count(),
      FLEET_TIMEOUT,
    ).toBe(1);
    const selection = panel.getByRole('group', { name: 'Select found controllers' });
    await selection.getByRole('button', { name: 'Select all' }).click();
    await eventually(() => selection.getByRole('status').innerText()).toBe(`${COUNT} of ${COUNT} selected`);
    await selection.getByRole('button', { name: 'Add selected…' }).click();

    const form = page.getByRole('form', { name: `Add ${COUNT} controllers with one login` });
    await form.getByLabel('Password', { exact: true }).fill(many.password);
    await form.getByRole('button', { name: `Add ${COUNT} controllers` }).click();
    await eventually(() => form.getByRole('status').innerText(), FLEET_TIMEOUT).toBe(
      `${COUNT} of ${COUNT} controllers added.`,
    );
    const saved = await lab.core.handlers['controllers/list']({});
    expect(saved).toHaveLength(COUNT);
    expect(new Set(saved.map((c) => c.url))).toEqual(new Set(many.units.map((u) => u.url)));
    expect(saved.every((c) => c.hasSecret && c.user === many.user)).toBe(true);
    await eventually(() => sidebarRows(page).count()).toBe(COUNT);
  });

  it('finds a controller in the sidebar and an outlet with Ctrl+K', async () => {
    const { page } = browser;
    const filter = page.getByRole('searchbox', { name: 'Filter controllers and outlets' });
    await filter.fill('unit 151');
    await eventually(() => sidebarRows(page).allInnerTexts()).toEqual([expect.stringContaining('Unit 151')]);
    await filter.fill('');
    await eventually(() => sidebarRows(page).count()).toBe(COUNT);

    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Go to a controller, outlet or group' });
    await eventually(() => isFocused(page, box)).toBe(true);
    // The Core learns the outlet names on its first poll of each controller.
    await box.fill('scope');
    const option = page.getByRole('option', { name: /Scope on Unit 152 · outlet 2/ });
    await eventually(() => option.getAttribute('aria-selected'), FLEET_TIMEOUT).toBe('true');
    await page.keyboard.press('Enter');
    await eventually(() =>
      sidebarRows(page).filter({ hasText: 'Unit 152' }).getAttribute('aria-selected'),
    ).toBe('true');
    const select = page.getByRole('checkbox', { name: 'Select outlet 2 (Scope)' });
    await eventually(() => isFocused(page, select)).toBe(true);
  });

  it('builds a sequence across three controllers and runs it step by step', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'New group' }).click();
    const editor = page.getByRole('form', { name: 'New group' });
    await editor.getByRole('textbox', { name: 'Group name' }).fill('Rack power-on');
    await editor.getByRole('checkbox', { name: /^Sequence/ }).check();
    const filter = editor.getByRole('searchbox', { name: 'Filter outlets' });
    // Ticked in boot order: the switch, then the server, then the scope.
    for (const [n, label] of [
      [150, '1 Switch'],
      [151, '1 Server'],
      [152, '2 Scope'],
    ] as const) {
      await filter.fill(`Unit ${n}`);
      const outlets = editor.getByRole('group', { name: `Unit ${n}` });
      await eventually(() => editor.getByRole('group', { name: /^Unit \d+$/ }).count()).toBe(1);
      await outlets.getByRole('checkbox', { name: label }).check();
    }
    await filter.fill('');
    const steps = editor.getByRole('group', { name: /^Steps, in order/ });
    await steps.getByRole('combobox', { name: 'After step 1' }).selectOption('confirmed');
    await steps.getByRole('spinbutton', { name: 'Seconds after step 1' }).fill('30');
    await steps.getByRole('spinbutton', { name: 'Seconds after step 1' }).blur();
    await steps.getByRole('spinbutton', { name: 'Seconds after step 2' }).fill('1');
    await steps.getByRole('spinbutton', { name: 'Seconds after step 2' }).blur();
    await editor.getByRole('button', { name: 'Save group' }).click();

    const card = page.getByRole('group', { name: 'Group Rack power-on' });
    await card.waitFor({ timeout: UI_TIMEOUT });
    await card.getByRole('button', { name: 'On', exact: true }).click();
    await page
      .getByRole('status')
      .getByText("Sequence 'Rack power-on' switched on: all 3 steps done.")
      .waitFor({ timeout: FLEET_TIMEOUT });
    const runSteps = page.getByRole('list', { name: 'Steps of Rack power-on' }).getByRole('listitem');
    await runSteps
      .nth(0)
      .getByText(/^confirmed on at /)
      .waitFor();
    // The run's log, under its steps.
    await page.getByText(/^Log \(\d+ entries\)$/).click();
    const log = page.getByRole('list', { name: 'Log of Rack power-on' });
    await log.getByText('Step 1: Unit 150 outlet 1 confirmed on.').waitFor();
    await log.getByText('Waiting 1 s before step 3.').waitFor();

    expect(unit(150).emulator.device.outlet(0).physicalState).toBe(true);
    expect(unit(151).emulator.device.outlet(0).physicalState).toBe(true);
    expect(unit(152).emulator.device.outlet(1).physicalState).toBe(true);
    // The other outlets of those units were left alone.
    expect(unit(152).emulator.device.outlet(0).physicalState).toBe(false);

    // The log has the three switches, each by the sequence, in the editor's order.
    const entries: ActivityEntry[] = await lab.core.handlers['activity/list']({ door: 'sequence' });
    const order = entries
      .filter((e) => e.result === 'ok')
      .sort((a, b) => a.id - b.id)
      .map((e) => `${e.controllerName}:${e.outlet}`);
    expect(order).toEqual(['Unit 150:1', 'Unit 151:1', 'Unit 152:2']);
  });
});
