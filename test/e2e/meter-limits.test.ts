/**
 * Meter limits in Chromium (issue 16 item 11): a reading outside its limit shows in "Needs attention"
 * and on the controller's tab (the Core's `meters/breaches`, through the web shell), and leaves when the
 * reading is back; uPlot draws the limit line as a dashed series, the time range sets its x scale, and
 * the chart follows a wide and a narrow window.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { controllerTab, eventually, openOverview, openSection, UI_TIMEOUT } from './ui';

/** The x scale uPlot drew the first chart with, [min, max] epoch seconds (from its setScale hook). */
async function xRange(page: Page): Promise<[number, number]> {
  const range = (await page.locator('figure .plot').first().getAttribute('data-range')) ?? '';
  const [min, max] = range.split('-').map(Number);
  return [min ?? Number.NaN, max ?? Number.NaN];
}

/** The labels of the series uPlot draws in each chart (meters, then limit lines). */
async function drawnSeries(page: Page): Promise<string[]> {
  return page
    .locator('figure .plot')
    .evaluateAll((plots) => plots.map((p) => (p as HTMLElement).dataset.series ?? ''));
}

describe('Meter limits in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 500 });
    bench = await lab.emulator({ name: 'Bench A' });
    bench.device.setMeter('buses.0.voltage', 231.4);
    await lab.add(bench, 'Bench A');
    // A breach begins after a second outside and ends after a second back inside (the hold time).
    await lab.core.handlers['settings/set']({ meterLimitHoldSeconds: 1 });
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Meters');
  });
  afterAll(() => lab?.close());

  it('a reading over its limit shows in Needs attention and on the tab, and leaves when back', async () => {
    const { page } = browser;
    const limits = page.getByRole('form', { name: 'Limits for AC voltage' });
    await limits.getByRole('textbox', { name: /^Maximum/ }).fill('225');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    await eventually(() => limits.getByRole('status').innerText()).toBe('Limits saved.');
    await controllerTab(page, 'Bench A')
      .and(page.getByRole('tab', { name: /a meter outside its limits/ }))
      .waitFor({ timeout: UI_TIMEOUT });

    await openOverview(page);
    const attention = page.getByRole('region', { name: 'Needs attention' });
    await eventually(() => attention.innerText().catch(() => '')).toMatch(
      /Bench A: AC voltage 231\.4 V above the maximum of 225 V\s+Outside since .+\./,
    );
    await saveScreenshot(page, 'meter-limits-overview');
    await expectAccessible(page, 'Overview with a meter outside its limits');

    bench.device.setMeter('buses.0.voltage', 220.5);
    await eventually(() => attention.innerText()).toContain('Nothing needs attention');
    await eventually(
      async () => (await controllerTab(page, 'Bench A').getAttribute('aria-label')) ?? '',
    ).not.toMatch(/limits/);
    expect(await controllerTab(page, 'Bench A').innerText()).not.toMatch(/limits/);
    expect(await lab.core.handlers['meters/breaches']({})).toEqual([]);
  });

  it('uPlot draws the limit line as a dashed series, and the time range sets its x scale', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'Meters');
    const figure = page.getByRole('figure');
    await figure.locator('.plot canvas').first().waitFor({ timeout: UI_TIMEOUT });
    // uPlot draws the meter and its limit as a second, dashed series; the page's legend names the limit.
    await eventually(() => drawnSeries(page)).toEqual(['AC voltage|AC voltage maximum']);
    expect(await figure.getByRole('list', { name: 'Series in this chart' }).innerText()).toContain(
      'max 225.00 V',
    );

    // "All kept" spans what the Core keeps: a few seconds here.
    expect(await page.getByRole('radio', { name: 'All kept' }).isChecked()).toBe(true);
    const [allFrom, allTo] = await xRange(page);
    expect(allTo - allFrom).toBeGreaterThan(0);
    expect(allTo - allFrom).toBeLessThan(3600);
    await page.getByRole('radio', { name: '1 h' }).check();
    // The last hour, ending at the newest poll.
    await eventually(async () => {
      const [from, to] = await xRange(page);
      return to - from;
    }).toBe(3600);
    expect((await xRange(page))[1]).toBeGreaterThanOrEqual(allTo);

    // A narrow window: the chart follows its width, over the last day.
    await page.setViewportSize({ width: 420, height: 900 });
    await page.getByRole('radio', { name: '24 h' }).check();
    await eventually(async () => {
      const [from, to] = await xRange(page);
      return to - from;
    }).toBe(86_400);
    const widths = await figure.evaluate((f) => [
      f.querySelector('.plot canvas')!.getBoundingClientRect().width,
      f.querySelector('.plot')!.getBoundingClientRect().width,
    ]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]! + 0.5);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Another meter in another unit: a chart of its own, each with its legend.
    await page
      .getByRole('group', { name: 'Meters in the chart' })
      .getByRole('checkbox', { name: 'AC current' })
      .check();
    await eventually(() => page.getByRole('figure').count()).toBe(2);
    await eventually(() => drawnSeries(page)).toEqual(['AC voltage|AC voltage maximum', 'AC current']);
    const legends = await page.getByRole('list', { name: 'Series in this chart' }).allInnerTexts();
    expect(legends.map((l) => l.replace(/\s+/g, ' ').trim())).toEqual([
      'AC voltage (limits dashed, max 225.00 V)',
      'AC current',
    ]);
    await saveScreenshot(page, 'meter-limits-charts');
    await expectAccessible(page, 'Meters charts with a limit line');
    expect(browser.errors).toEqual([]);
  });

  it('Settings names the limited meter by its name, in the chosen units', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Settings' }).click();
    const limits = page.getByRole('group', { name: 'Meter limits' });
    await eventually(() => limits.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Bench A, AC voltage: at most 225.0 V'),
    ]);
    expect(await limits.innerText()).not.toMatch(/canonical|buses\.0/);
  });
});
