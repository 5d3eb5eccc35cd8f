/**
 * The outlet row in Chromium: one power control that shows and changes the physical state (saved), a
 * temporary switch as a secondary action in the row's menu, the saved-vs-temporary note as one line
 * under the row, and one column grid whatever the rows say (notes, a reservation, a form open), at
 * 1280×800 and in a 480 px window, light and dark.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { dispatch } from '../../src-main/core/index';
import type { Result } from '../../src-preload/contract';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import {
  eventually,
  openSection,
  outletRow,
  physicalShown,
  recordChanges,
  sectionTab,
  UI_TIMEOUT,
  type PageMoment,
} from './ui';

const NAMES = ['Router', 'Switch', 'Scope', 'Signal generator', 'Lamp', 'Fan', 'Charger', 'Spare'];

/** Where a control of each row is: the same x in every row is one column grid. */
async function columnOf(page: Page, what: (row: Locator) => Locator): Promise<number[]> {
  const xs: number[] = [];
  for (const [i, name] of NAMES.entries()) {
    const box = await what(outletRow(page, i + 1, name)).boundingBox();
    xs.push(Math.round(box!.x));
  }
  return xs;
}

/** What aria-describedby gives a control: the texts it points to, in order. */
function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

const powerOf = (row: Locator) => row.getByRole('switch', { name: /^Power of / });

describe('The outlet row in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;
  let controllerId: string;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({
      name: 'Bench A',
      initialStates: [true, true, true, false, false, true, true, false],
    });
    NAMES.forEach((name, index) => bench.device.setOutlet(index, { name }));
    // Saved and temporary apart on three outlets: the pictures and the grid check need their notes.
    bench.device.setOutlet(1, { transientState: false });
    bench.device.setOutlet(4, { transientState: true });
    bench.device.setOutlet(6, { transientState: false });
    bench.device.setCritical(0, true);
    bench.device.lock(7);
    await bench.device.whenSettled();
    controllerId = (await lab.add(bench, 'Bench A')).id;
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Outlets');
    await outletRow(browser.page, 5, 'Lamp')
      .getByText(/^Temporarily on/)
      .waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('a new user switches, switches temporarily and reads the three states, one control each', async () => {
    const { page } = browser;
    const row = outletRow(page, 3, 'Scope');
    // One power control in the row; no second on/off pair, no switch called "Temporary".
    expect(await row.getByRole('switch').count()).toBe(1);
    expect(await row.getByRole('button', { name: /^(On|Off|Temporary)$/ }).count()).toBe(0);
    const power = powerOf(row);
    expect(await power.getAttribute('aria-checked')).toBe('true');

    // Pressing it switches the outlet off, saved: the relay, the temporary and the saved state follow.
    await power.click();
    await eventually(() => physicalShown(row)).toBe('off');
    await eventually(() => row.getAttribute('aria-busy')).toBe('false');
    expect(bench.device.outlet(2)).toMatchObject({
      state: false,
      transientState: false,
      physicalState: false,
    });
    // All three agree: no note under the row; a screen reader hears the three states with the switch.
    expect(await row.getByText(/^Temporarily/).count()).toBe(0);
    expect(await descriptionOf(power)).toBe('Physical off, temporary off, saved off.');

    // Temporarily on: from the row's menu, which says what temporary means before it is chosen.
    await row.getByRole('button', { name: 'More actions for outlet 3 (Scope)' }).click();
    const item = page.getByRole('menuitem', { name: /^Switch on temporarily/ });
    expect(await item.innerText()).toContain(
      'Until the controller restarts; then back to its saved state (off).',
    );
    await expectAccessible(page, 'the menu of an outlet row');
    await item.click();
    await eventually(() => physicalShown(row)).toBe('on');
    expect(bench.device.outlet(2)).toMatchObject({ state: false, transientState: true, physicalState: true });
    // The three states, read in the row: on now (the switch), temporarily on, saved off (the note).
    const note = row.getByText(/^Temporarily on:/);
    await eventually(() => note.innerText()).toBe(
      'Temporarily on: saved state off, so it goes back to off when the controller restarts.',
    );
    expect(await power.getAttribute('aria-checked')).toBe('true');
    expect(await descriptionOf(power)).toBe(
      'Temporarily on: saved state off, so it goes back to off when the controller restarts.',
    );

    // Pressing the switch now saves off: the temporary state goes with it, and so does the note.
    await power.click();
    await eventually(() => physicalShown(row)).toBe('off');
    await eventually(() => note.count()).toBe(0);
    expect(bench.device.outlet(2)).toMatchObject({ state: false, transientState: false });
    expect(browser.errors).toEqual([]);
  });

  it('keeps one column grid whatever the rows say, and every row on screen at 1280×800', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    const powers = await columnOf(page, powerOf);
    const cycles = await columnOf(page, (row) => row.getByRole('button', { name: /^Cycle / }));
    const menus = await columnOf(page, (row) => row.getByRole('button', { name: /^More actions for / }));
    for (const xs of [powers, cycles, menus]) expect(new Set(xs).size).toBe(1);

    // The notes of the three outlets apart are one line each, under their row, as wide as the row.
    for (const [n, name] of [
      [2, 'Switch'],
      [5, 'Lamp'],
      [7, 'Charger'],
    ] as const) {
      const row = outletRow(page, n, name);
      const note = row.getByText(/^Temporarily (on|off):/);
      const [rowBox, noteBox, powerBox] = await Promise.all([
        row.boundingBox(),
        note.boundingBox(),
        powerOf(row).boundingBox(),
      ]);
      const lineHeight = await note.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect(noteBox!.height).toBeLessThanOrEqual(lineHeight * 1.2);
      expect(noteBox!.y).toBeGreaterThanOrEqual(powerBox!.y + powerBox!.height - 1);
      expect(noteBox!.width).toBeGreaterThan(rowBox!.width * 0.6);
      expect(rowBox!.height).toBeLessThan(80);
    }
    const last = await outletRow(page, 8, 'Spare').boundingBox();
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(last!.y + last!.height).toBeLessThanOrEqual(800);
    await saveScreenshot(page, 'outlet-rows-1280-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'outlet-rows-1280-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page, 'outlet rows with saved and temporary apart');
  });

  it('opens the rename box over the name and the settings under the row, moving nothing', async () => {
    const { page } = browser;
    const row = outletRow(page, 6, 'Fan');
    const name = await row.getByText('Outlet 6: Fan').boundingBox();
    const power = await powerOf(row).boundingBox();
    await row.getByRole('button', { name: 'More actions for outlet 6 (Fan)' }).click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    const box = row.getByRole('textbox', { name: 'New name for outlet 6 (Fan)' });
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    const boxAt = await box.boundingBox();
    // Over the name: where the name began, on the row's line; the power switch has not moved.
    expect(Math.abs(boxAt!.x - name!.x)).toBeLessThan(12);
    expect(boxAt!.y).toBeLessThan(power!.y + power!.height);
    expect(await powerOf(row).boundingBox()).toEqual(power);
    await box.press('Escape');
    await eventually(() => box.count()).toBe(0);

    await row.getByRole('button', { name: 'More actions for outlet 6 (Fan)' }).click();
    await page.getByRole('menuitem', { name: /^Settings…/ }).click();
    const delay = row.getByRole('textbox', { name: 'Cycle delay of outlet 6 (Fan) in seconds' });
    await delay.waitFor({ timeout: UI_TIMEOUT });
    const form = await page.getByRole('form', { name: 'Settings of outlet 6 (Fan)' }).boundingBox();
    expect(await powerOf(row).boundingBox()).toEqual(power);
    expect(form!.y).toBeGreaterThanOrEqual(power!.y + power!.height);
    await delay.press('Escape');
    // Back from the form, focus is on the menu it came from.
    await eventually(() =>
      row
        .getByRole('button', { name: 'More actions for outlet 6 (Fan)' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
  });

  it('a reserved outlet stays in line, reserves only itself, and a locked one offers no Reserve…', async () => {
    const { page } = browser;
    const asBob = (name: string, input: unknown) =>
      dispatch(
        lab.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' }),
        name,
        input,
        () => undefined,
      ) as Promise<Result<unknown>>;
    const before = await columnOf(page, powerOf);
    expect(
      await asBob('reservations/take', {
        target: { kind: 'outlet', controllerId, outlet: 4 },
        reason: 'bisecting a kernel',
        durationMs: 3_600_000,
      }),
    ).toMatchObject({ ok: true });
    const row = outletRow(page, 4, 'Signal generator');
    await eventually(() => powerOf(row).isDisabled()).toBe(true);
    expect(await columnOf(page, powerOf)).toEqual(before);
    expect(new Set(await columnOf(page, (r) => r.getByRole('button', { name: /^Cycle / }))).size).toBe(1);
    // The controller as a whole is not reserved: its toolbar offers Reserve…, not Break reservation….
    const outlets = page.getByRole('region', { name: 'Outlets of Bench A' });
    await outlets.getByRole('button', { name: 'Reserve Bench A' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await outlets.getByRole('button', { name: 'Break reservation of Bench A' }).count()).toBe(0);
    // A locked outlet: nothing to reserve.
    expect(
      await outletRow(page, 8, 'Spare')
        .getByRole('button', { name: /^Reserve / })
        .count(),
    ).toBe(0);

    // The reason is not marked wrong before anything is typed.
    await outletRow(page, 6, 'Fan').getByRole('button', { name: 'Reserve outlet 6 (Fan)' }).click();
    const reason = page.getByRole('textbox', { name: 'Why you reserve outlet 6 (Fan)' });
    expect(await reason.getAttribute('aria-invalid')).toBe('false');
    expect(await reason.evaluate((el) => getComputedStyle(el).borderColor)).toBe(
      await page
        .getByRole('combobox', { name: 'How long to reserve outlet 6 (Fan)' })
        .evaluate((el) => getComputedStyle(el).borderColor),
    );
    await reason.press('Escape');
    expect(await columnOf(page, powerOf)).toEqual(before);
  });

  it('in a 480 px window: the section tabs whole, the rows compact, light and dark', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 480, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const tabs = page.getByRole('tablist', { name: 'Sections of Bench A' }).getByRole('tab');
    for (const tab of await tabs.all()) {
      const cut = await tab.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth + 1 || box.right > window.innerWidth || box.left < 0;
      });
      expect(cut, await tab.innerText()).toBe(false);
    }
    expect(await sectionTab(page, 'Bench A', 'Activity').innerText()).toBe('Activity');
    for (const [i, name] of NAMES.entries()) {
      const row = outletRow(page, i + 1, name);
      const box = await row.boundingBox();
      const power = await powerOf(row).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(480);
      // One line of controls; the rows apart have their note line under it.
      expect(box!.height).toBeLessThan(power!.height + 60);
    }
    expect(new Set(await columnOf(page, powerOf)).size).toBe(1);
    await saveScreenshot(page, 'outlet-rows-480-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'outlet-rows-480-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page, 'outlet rows in a 480 px window');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(browser.errors).toEqual([]);
  });

  it('a slow unit: pending ends with the first reading that shows the relay switched, never ON beside "waiting"', async () => {
    const { page } = browser;
    // A unit slow on every outlet answer, the switch included: the poller's next read begins while the
    // switch is on its way and waits for it (one request at a time), so it shows the switch done although
    // it began before the controller's answer.
    const slow = await lab.emulator({ name: 'Slow bench', slowOutletsMs: 1_500 });
    await lab.add(slow, 'Slow bench');
    await openSection(page, 'Slow bench', 'Outlets');
    const row = outletRow(page, 3, 'Outlet 3');
    await eventually(() => physicalShown(row), UI_TIMEOUT).toBe('on');
    await powerOf(row).click();
    await eventually(() => physicalShown(row)).toBe('off');
    const record = await recordChanges(row, [[powerOf(row), 'aria-checked']]);
    await powerOf(row).click();
    const waitingOn = (m: PageMoment) =>
      m.attributes[0] === 'true' && m.text.includes('Waiting for the controller');
    await eventually(async () => (await record.moments()).some((m) => m.attributes[0] === 'true')).toBe(true);
    await eventually(() => row.getAttribute('aria-busy')).toBe('false');
    const moments = await record.stop();
    expect(moments.filter(waitingOn)).toEqual([]);
    expect(slow.device.outlet(2)).toMatchObject({ state: true, physicalState: true });
  });
});
