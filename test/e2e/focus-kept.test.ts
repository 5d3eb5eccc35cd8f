/**
 * Issue 16 item 2 in Chromium: keyboard focus stays on the control that sent a request, while the
 * request is on its way (the control is aria-disabled, not disabled) and after it: a switch pressed with
 * the keyboard, a rename (focus goes back to the row's menu) and an Overview tile. The row's controls
 * too: one power switch that says what a press does, Cycle, the menu; the web shell, which has no tray,
 * shows no star.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import type { BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import {
  cameAndWent,
  eventually,
  openOverview,
  openSection,
  outletRow,
  recordChanges,
  UI_TIMEOUT,
  type PageMoment,
} from './ui';

const NAMES = ['Router', 'Switch', 'Scope', 'Signal generator', 'Lamp', 'Fan', 'Charger', 'Spare'];
/** Each request takes this long at the controller: a while to be on its way (recorded, not sampled). */
const SLOW_MS = 2500;

const isFocused = (control: Locator) => control.evaluate((el) => el === document.activeElement);
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el === null || el === document.body ? 'body' : (el.getAttribute('aria-label') ?? el.tagName);
  });

describe('Focus stays where it was, in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A', initialStates: Array(8).fill(false) });
    NAMES.forEach((name, index) => bench.device.setOutlet(index, { name }));
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Outlets');
    await outletRow(browser.page, 1, 'Router').waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('one power switch per row says what it shows and what a press does; a menu for the rest; no star in the web shell', async () => {
    const { page } = browser;
    const row = outletRow(page, 1, 'Router');
    const power = row.getByRole('switch', { name: 'Power of outlet 1 (Router)' });
    expect(await power.getAttribute('aria-checked')).toBe('false');
    expect(await power.getAttribute('title')).toBe(
      'Off now. Press to switch it on (saved: it stays so after a restart).',
    );
    // Tab from the selection box goes to the power switch, then Cycle, then the menu.
    await row.getByRole('checkbox', { name: 'Select outlet 1 (Router)' }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Power of outlet 1 (Router)');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Cycle outlet 1 (Router)');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('More actions for outlet 1 (Router)');
    expect(
      await row.getByRole('button', { name: 'More actions for outlet 1 (Router)' }).getAttribute('title'),
    ).toBe('More actions for outlet 1 (Router)');
    expect(await page.getByRole('button', { name: /to the tray/ }).count()).toBe(0);
  });

  it('a switch pressed with the keyboard keeps focus during and after its request', async () => {
    const { page } = browser;
    const on = page.getByRole('switch', { name: 'Power of outlet 2 (Switch)' });
    await on.focus();
    const sending = (m: PageMoment) => m.attributes[0] === 'true';
    bench.device.latency = SLOW_MS;
    let moments: PageMoment[];
    try {
      const record = await recordChanges(page.getByRole('main'), [[on, 'aria-disabled']]);
      await page.keyboard.press('Enter');
      // Started at once, well inside the controller's answer time: the page with the switch on its way.
      await expectAccessible(page, 'A switch on its way');
      await eventually(async () => cameAndWent(await record.moments(), sending)).toBe(true);
      moments = await record.stop();
    } finally {
      bench.device.latency = 0;
    }
    // On its way (aria-disabled) and after, the focus never left the switch.
    expect(moments.some(sending)).toBe(true);
    expect(moments.every((m) => m.focusedWatched === 0)).toBe(true);
    expect(await isFocused(on)).toBe(true);
    await eventually(() => bench.device.outlet(1).state).toBe(true);
    // The keyboard goes on from there: Down moves to the same control of the next outlet.
    await page.keyboard.press('ArrowDown');
    expect(await focusedName(page)).toBe('Power of outlet 3 (Scope)');
  });

  it('after a rename, focus is back on the menu of the renamed outlet', async () => {
    const { page } = browser;
    // By keyboard: the menu opens on Enter with its first item focused; Down, Enter chooses Rename….
    await page.getByRole('button', { name: 'More actions for outlet 4 (Signal generator)' }).focus();
    await page.keyboard.press('Enter');
    await eventually(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(
      /^Switch on temporarily/,
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const input = page.getByRole('textbox', { name: 'New name for outlet 4 (Signal generator)' });
    expect(await isFocused(input)).toBe(true);
    await input.fill('Generator');
    const save = page.getByRole('button', { name: 'Save' });
    const renamed = (m: PageMoment) => m.focused === 'More actions for outlet 4 (Generator)';
    bench.device.latency = SLOW_MS;
    let moments: PageMoment[];
    try {
      const record = await recordChanges(page.getByRole('main'), [
        [save, 'aria-disabled'],
        [input, 'aria-invalid'],
      ]);
      await page.keyboard.press('Enter');
      await eventually(async () => (await record.moments()).some(renamed)).toBe(true);
      moments = await record.stop();
    } finally {
      bench.device.latency = 0;
    }
    // While the new name was on its way (Save aria-disabled) the focus stayed in the field; then it went
    // to the renamed outlet's menu.
    const before = moments.slice(0, moments.findIndex(renamed));
    expect(before.some((m) => m.attributes[0] === 'true')).toBe(true);
    expect(before.filter((m) => m.attributes[0] === 'true').every((m) => m.focusedWatched === 1)).toBe(true);
    expect(await focusedName(page)).toBe('More actions for outlet 4 (Generator)');
    expect(bench.device.outlet(3).name).toBe('Generator');
  });

  it('an Overview tile keeps focus during and after its request', async () => {
    const { page } = browser;
    await openOverview(page);
    const tile = page.getByRole('list', { name: 'Outlets of Bench A' }).getByRole('button', { name: /^5 / });
    await tile.waitFor({ timeout: UI_TIMEOUT });
    expect(await tile.getAttribute('aria-pressed')).toBe('false');
    const sending = (m: PageMoment) => m.attributes[0] === 'true';
    bench.device.latency = SLOW_MS;
    let moments: PageMoment[];
    try {
      const record = await recordChanges(page.getByRole('main'), [[tile, 'aria-disabled']]);
      await tile.click();
      await eventually(async () => cameAndWent(await record.moments(), sending)).toBe(true);
      moments = await record.stop();
    } finally {
      bench.device.latency = 0;
    }
    // From the click on, through the request and after it, the focus stayed on the tile.
    const fromClick = moments.slice(moments.findIndex((m) => m.focusedWatched === 0));
    expect(fromClick.some(sending)).toBe(true);
    expect(fromClick.every((m) => m.focusedWatched === 0)).toBe(true);
    await eventually(() => tile.getAttribute('aria-pressed')).toBe('true');
    expect(await isFocused(tile)).toBe(true);
    expect(await focusedName(page)).not.toBe('body');
    expect(browser.errors).toEqual([]);
  });
});
