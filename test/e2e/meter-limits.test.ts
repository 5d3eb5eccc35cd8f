/**
 * Meter limits in Chromium (issue 16 item 11): a reading outside its limit shows in "Needs attention"
 * and on the controller's tab (the Core's `meters/breaches`, through the web shell), and leaves when the
 * reading is back; the chart draws the limit line, switches its time range, and its axis labels do not
 * collide as the browser lays them out, on a wide and a narrow window.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { controllerTab, eventually, openOverview, openSection, UI_TIMEOUT } from './ui';

/** Every pair of the chart's axis labels that overlap on screen, as "a / b". */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page
    .locator('figure svg')
    .first()
    .evaluate((svg) => {
      const overlaps: string[] = [];
      for (const kind of ['x-label', 'y-label']) {
        const boxes = [...svg.querySelectorAll<SVGTextElement>(`text.${kind}`)].map((t) => ({
          text: t.textContent ?? '',
          box: t.getBoundingClientRect(),
        }));
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++) {
            const a = boxes[i]!.box;
            const b = boxes[j]!.box;
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
              overlaps.push(`${boxes[i]!.text} / ${boxes[j]!.text}`);
          }
        const frame = svg.getBoundingClientRect();
        for (const { text, box } of boxes)
          if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) overlaps.push(`${text} / edge`);
      }
      return overlaps;
    });
}

/** Where the first series' line starts, as a share of the chart's width (0 = left edge). */
async function lineStart(page: Page): Promise<number> {
  return page
    .locator('figure svg')
    .first()
    .evaluate((svg) => {
      const path = svg.querySelector<SVGPathElement>('path.series')!;
      return path.getBBox().x / svg.getBoundingClientRect().width;
    });
}

describe.sequential('Meter limits in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 500 });
    bench = await lab.emulator({ name: 'Bench A' });
    bench.device.setMeter('buses.0.voltage', 231.4);
    await lab.add(bench, 'Bench A');
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
    const attention = page.getByRole('region', { name: 'Needs attention: meter limits' });
    await eventually(() => attention.innerText().catch(() => '')).toMatch(
      /Bench A: AC voltage reads 231\.4 V, above the maximum of 225\.0 V, since .+\./,
    );
    await saveScreenshot(page, 'meter-limits-overview');
    await expectAccessible(page, 'Overview with a meter outside its limits');

    bench.device.setMeter('buses.0.voltage', 220.5);
    await attention.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await eventually(
      async () => (await controllerTab(page, 'Bench A').getAttribute('aria-label')) ?? '',
    ).not.toMatch(/limits/);
    expect(await controllerTab(page, 'Bench A').innerText()).not.toMatch(/limits/);
    expect(await lab.core.handlers['meters/breaches']({})).toEqual([]);
  });

  it('the chart draws the limit line, switches range, and keeps its labels apart', async () => {
    const { page } = browser;
    await openSection(page, 'Bench A', 'Meters');
    const figure = page.getByRole('figure');
    await figure.locator('line[data-limit="max"]').waitFor({ state: 'attached', timeout: UI_TIMEOUT });
    expect(await figure.getByRole('list', { name: 'Series in this chart' }).innerText()).toContain(
      'max 225.00 V',
    );
    // The limit line (225 V) lies between the older readings above it (231.4 V) and the newer below (220.5 V).
    const [limitY, top, bottom] = await figure.locator('svg').evaluate((svg) => {
      const line = svg.querySelector('line[data-limit="max"]')!.getBoundingClientRect();
      const path = svg.querySelector('path.series')!.getBoundingClientRect();
      return [line.top, path.top, path.bottom];
    });
    expect(limitY).toBeGreaterThan(top);
    expect(limitY).toBeLessThan(bottom);

    // "All kept" spans what the Core keeps: a few seconds here, drawn across the width.
    expect(await page.getByRole('radio', { name: 'All kept' }).isChecked()).toBe(true);
    expect(await lineStart(page)).toBeLessThan(0.25);
    await page.getByRole('radio', { name: '1 h' }).check();
    // The last hour: those seconds are at its right end.
    await eventually(() => lineStart(page)).toBeGreaterThan(0.8);
    expect(await overlappingLabels(page)).toEqual([]);

    await page.setViewportSize({ width: 420, height: 900 });
    await page.getByRole('radio', { name: '24 h' }).check();
    await eventually(() => figure.locator('text.x-label').count()).toBeGreaterThanOrEqual(2);
    expect(await overlappingLabels(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Another meter in another unit: a chart of its own, each with its legend.
    await page
      .getByRole('group', { name: 'Meters in the chart' })
      .getByRole('checkbox', { name: 'AC current' })
      .check();
    await eventually(() => page.getByRole('figure').count()).toBe(2);
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
