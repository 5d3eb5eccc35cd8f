/**
 * The Meters tab in Chromium: tiles show what the controller's meters read (in °C or °F as set), the
 * chart (uPlot, on a canvas) follows the history the Core keeps, limits mark a tile, CSV export
 * downloads the history, and a controller without meters says so.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { downloadText, saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, openSection, UI_TIMEOUT } from './ui';

const KELVIN = 273.16;

function tile(page: Page, name: RegExp) {
  return page.getByRole('list', { name: 'Meter readings' }).getByRole('button', { name });
}

/** A tile's reading as shown: "231.4 V". */
async function shown(page: Page, name: RegExp): Promise<string> {
  const text = await tile(page, name).locator('.value').innerText();
  return text.replace(/\s+/g, ' ').trim();
}

/** How many pixels of the first chart's canvas are in its first series' colour (within a little anti-aliasing). */
async function seriesPixels(page: Page): Promise<number> {
  return page
    .locator('figure')
    .first()
    .evaluate((figure) => {
      const swatch = getComputedStyle(figure.querySelector('.legend .swatch')!).backgroundColor;
      const [r, g, b] = (swatch.match(/\d+/g) ?? []).map(Number);
      const canvas = figure.querySelector<HTMLCanvasElement>('.plot canvas')!;
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let i = 0; i < pixels.length; i += 4)
        if (
          pixels[i + 3]! > 200 &&
          Math.abs(pixels[i]! - r!) < 24 &&
          Math.abs(pixels[i + 1]! - g!) < 24 &&
          Math.abs(pixels[i + 2]! - b!) < 24
        )
          count++;
      return count;
    });
}

/**
 * The tests run in order in one window: limits and the °F setting made by one test are still set in the next.
 */
describe('Meters in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let rack: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A' });
    rack = await lab.emulator({ name: 'Rack 7', meters: false });
    bench.device.setMeter('buses.0.voltage', 231.4);
    bench.device.setMeter('sensors.0.temperature', KELVIN + 25);
    await lab.add(bench, 'Bench A');
    await lab.add(rack, 'Rack 7');
    // Every reading judged on its own (no hold time): the tile follows the limit at once.
    await lab.core.handlers['settings/set']({ meterLimitHoldSeconds: 0 });
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Meters');
    await tile(browser.page, /^AC voltage/).waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('shows a tile per meter with the value the controller reads', async () => {
    const { page } = browser;
    const names = await page
      .getByRole('list', { name: 'Meter readings' })
      .getByRole('button')
      .allInnerTexts();
    expect(names.map((n) => n.split('\n')[0]!.trim())).toEqual([
      'AC voltage',
      'AC current',
      'Total energy',
      'Internal temperature',
      'Sensor 1 temperature',
      'Sensor 1 humidity',
    ]);
    expect(await shown(page, /^AC voltage/)).toBe('231.4 V');
    expect(await shown(page, /^Sensor 1 temperature/)).toBe('25.0 °C');
    // A value that changes on the controller changes on the tile.
    bench.device.setMeter('buses.0.voltage', 228.9);
    await eventually(() => shown(page, /^AC voltage/)).toBe('228.9 V');
  });

  it('charts the history of the chosen meter (uPlot)', async () => {
    const { page } = browser;
    const chart = page.getByRole('figure');
    await chart.locator('.plot canvas').first().waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => chart.locator('figcaption').innerText()).toMatch(
      /^AC voltage since .+: latest 228\.90 V, lowest \d+\.\d\d V, highest 231\.40 V\.$/,
    );
    // The line really is drawn: the canvas has pixels in the meter's colour (the legend swatch's).
    await eventually(() => seriesPixels(page)).toBeGreaterThan(20);

    await tile(page, /^Sensor 1 humidity/).click();
    expect(await tile(page, /^Sensor 1 humidity/).getAttribute('aria-pressed')).toBe('true');
    await page
      .getByRole('heading', { name: 'History of Sensor 1 humidity', exact: true })
      .waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => chart.locator('figcaption').innerText()).toMatch(
      /^Sensor 1 humidity since .+ %\.$/,
    );
    await tile(page, /^AC voltage/).click();
    await saveScreenshot(page, 'meters');
    await expectAccessible(page, 'Meters');
  });

  it('marks a tile that leaves its limits', async () => {
    const { page } = browser;
    const limits = page.getByRole('form', { name: 'Limits for AC voltage' });
    const maximum = limits.getByRole('textbox', { name: /^Maximum/ });
    await maximum.fill('225');
    // A poll arrives while the person is still at the form: what they typed stays.
    bench.device.setMeter('buses.0.voltage', 229.5);
    await eventually(() => shown(page, /^AC voltage/)).toBe('229.5 V');
    expect(await maximum.inputValue()).toBe('225');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    await eventually(() => limits.getByRole('status').innerText()).toBe('Limits saved.');
    await eventually(() => tile(page, /^AC voltage/).innerText()).toContain('Above the maximum of 225 V');
    const settings = await lab.core.handlers['settings/get']({});
    expect(settings.meterThresholds).toEqual([
      expect.objectContaining({ key: 'buses.0.voltage', min: null, max: 225 }),
    ]);
    await expectAccessible(page, 'Meters with a tile out of its limits');
  });

  it('shows temperatures in °F when the setting says so', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: '°F (Fahrenheit)' }).check();
    await eventually(async () => (await lab.core.handlers['settings/get']({})).temperatureUnit).toBe('F');
    await openSection(page, 'Bench A', 'Meters');
    await eventually(() => shown(page, /^Sensor 1 temperature/)).toBe('77.0 °F');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: '°C (Celsius)' }).check();
    await eventually(async () => (await lab.core.handlers['settings/get']({})).temperatureUnit).toBe('C');
    await openSection(page, 'Bench A', 'Meters');
    await eventually(() => shown(page, /^Sensor 1 temperature/)).toBe('25.0 °C');
  });

  it('draws the chart in the colours of the theme chosen', async () => {
    const { page } = browser;
    for (const theme of ['Dark', 'Light']) {
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('radio', { name: theme, exact: true }).check();
      await eventually(async () => (await lab.core.handlers['settings/get']({})).theme).toBe(
        theme.toLowerCase(),
      );
      await openSection(page, 'Bench A', 'Meters');
      // The line is in this theme's colour for the meter (its legend swatch), not the other theme's.
      await eventually(() => seriesPixels(page)).toBeGreaterThan(20);
    }
  });

  it('exports the history as a CSV file', async () => {
    const { page } = browser;
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: UI_TIMEOUT }),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^plugboard-bench-a-meters-.+\.csv$/);
    const csv = await downloadText(download);
    const [header, ...rows] = csv
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(header![0]).toBe('time');
    expect(header).toEqual(
      expect.arrayContaining(['AC voltage (V)', 'Sensor 1 temperature (°C)', 'Sensor 1 humidity (%)']),
    );
    const volts = header!.indexOf('AC voltage (V)');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.map((row) => row[volts])).toEqual(expect.arrayContaining(['231.4', '228.9', '229.5']));
    expect(rows.every((row) => !Number.isNaN(Date.parse(row[0]!)))).toBe(true);
  });

  it('says so on a controller without meters', async () => {
    const { page } = browser;
    await openSection(page, 'Rack 7', 'Meters');
    await page.getByText('No meters on this controller.').waitFor({ timeout: UI_TIMEOUT });
    expect(await page.getByRole('list', { name: 'Meter readings' }).count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });
});
