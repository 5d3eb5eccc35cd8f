/**
 * The meter charts for an investigation, in Chromium: uPlot's cursor reads the values under the pointer
 * into the legend, a drag across the chart zooms in on that time (new readings keep it there; "Show the
 * whole range" and a double click go back), limit lines are drawn in the colours of a limit rather than
 * their meter's, the heading names every meter drawn, and the history goes on across a reconnect.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, openSection, UI_TIMEOUT, waitForStatus } from './ui';

/** The x scale's span in seconds, as uPlot last set it (its setScale hook). */
async function span(page: Page): Promise<number> {
  const [min, max] = ((await page.locator('figure .plot').first().getAttribute('data-range')) ?? '')
    .split('-')
    .map(Number);
  return max! - min!;
}

describe('Meter charts in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;
  let id: string;

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 500 });
    bench = await lab.emulator({ name: 'Bench A' });
    bench.device.setMeter('buses.0.voltage', 231.4);
    id = (await lab.add(bench, 'Bench A')).id;
    await lab.core.handlers['settings/set']({
      meterThresholds: [{ controllerId: id, key: 'buses.0.voltage', min: 220, max: 240 }],
    });
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Meters');
    await browser.page.locator('figure .plot canvas').first().waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('the cursor reads the values under the pointer into the legend; limits are drawn in their own colours', async () => {
    const { page } = browser;
    const figure = page.getByRole('figure').first();
    // Enough readings to point at.
    await eventually(async () => (await figure.locator('figcaption').innerText()).length).toBeGreaterThan(0);
    await eventually(() => page.evaluate(() => document.querySelectorAll('figure').length)).toBe(1);
    const canvas = figure.locator('.plot .u-over');
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width - 4, box.y + box.height / 2);
    const legend = figure.getByRole('list', { name: 'Series in this chart' });
    await eventually(() => legend.innerText()).toMatch(/AC voltage\s*231\.40 V/);
    expect(await figure.innerText()).toMatch(/At \d\d:\d\d:\d\d/);

    // The maximum is red and the minimum amber, as a breach would be; the meter keeps its own colour.
    const strokes = ((await figure.locator('.plot').getAttribute('data-strokes')) ?? '').split('|');
    const css = await figure.evaluate((f) => {
      const colour = (selector: string) => getComputedStyle(f.querySelector(selector)!).backgroundColor;
      return {
        meter: colour('.palette .s0'),
        min: colour('.palette .limit-min'),
        max: colour('.palette .limit-max'),
      };
    });
    expect(strokes).toEqual([css.meter, css.min, css.max]);
    expect(new Set(strokes).size).toBe(3);
    await saveScreenshot(page, 'meter-chart-hover', { fullPage: false });
    await expectAccessible(page, 'A chart with the cursor on it');
    await page.mouse.move(0, 0);
  });

  it('a drag across the chart zooms in, and stays while readings come; Show the whole range goes back', async () => {
    const { page } = browser;
    const figure = page.getByRole('figure').first();
    // A minute of readings to zoom into.
    await page.getByRole('radio', { name: '1 h' }).check();
    await eventually(() => span(page)).toBe(3600);
    const box = (await figure.locator('.plot .u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await eventually(() => span(page)).toBeLessThan(3600 * 0.3);
    const zoomed = await span(page);
    const reset = figure.getByRole('button', { name: 'Show the whole range' });
    await reset.waitFor({ timeout: UI_TIMEOUT });
    // More readings arrive: the chart stays where it was zoomed to.
    const lastUpdate = async () => (await lab.core.handlers['app/snapshot']({})).states[0]!.lastUpdate ?? 0;
    const before = await lastUpdate();
    await eventually(lastUpdate).toBeGreaterThan(before);
    await eventually(lastUpdate).toBeGreaterThan(before + 1000);
    expect(await span(page)).toBe(zoomed);
    await saveScreenshot(page, 'meter-chart-zoomed', { fullPage: false });

    await reset.click();
    await eventually(() => span(page)).toBe(3600);
    await reset.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    // A double click goes back too.
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await eventually(() => span(page)).toBeLessThan(3600 * 0.3);
    await page.mouse.dblclick(box.x + box.width * 0.5, box.y + box.height / 2);
    await eventually(() => span(page)).toBe(3600);
  });

  it('the heading names every meter drawn', async () => {
    const { page } = browser;
    await page
      .getByRole('group', { name: 'Meters in the chart' })
      .getByRole('checkbox', { name: 'AC current' })
      .check();
    await page.getByRole('heading', { name: 'History of AC voltage and AC current' }).waitFor({
      timeout: UI_TIMEOUT,
    });
    await page
      .getByRole('group', { name: 'Meters in the chart' })
      .getByRole('checkbox', { name: 'AC current' })
      .uncheck();
    await page.getByRole('heading', { name: 'History of AC voltage' }).waitFor({ timeout: UI_TIMEOUT });
  });

  it('the history goes on across a reconnect', async () => {
    const { page } = browser;
    const since = async () =>
      /AC voltage since ([^:]+:[^:]+:\S+)/.exec(await page.getByRole('figure').first().innerText())?.[1];
    await page.getByRole('radio', { name: 'All kept' }).check();
    const first = await since();
    expect(first).toBeTruthy();
    // The password is changed on the unit and given again in System → Connection: Plugboard reconnects.
    bench.device.setPassword('admin', 'rotated');
    bench.device.expireNonces();
    await waitForStatus(page, 'Bench A', 'auth problem', 30_000);
    await openSection(page, 'Bench A', 'System');
    const connection = page.getByRole('form', { name: 'Connection' });
    await connection.getByLabel('New password').fill('rotated');
    await connection.getByRole('button', { name: 'Save connection' }).click();
    await waitForStatus(page, 'Bench A', 'online', 30_000);
    await page.reload();
    await openSection(page, 'Bench A', 'Meters');
    await page.locator('figure .plot canvas').first().waitFor({ timeout: UI_TIMEOUT });
    await page.getByRole('radio', { name: 'All kept' }).check();
    await eventually(since).toBe(first);
    expect(browser.errors).toEqual([]);
  });
});
