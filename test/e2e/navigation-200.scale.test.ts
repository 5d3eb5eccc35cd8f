/**
 * Navigation at 200 saved controllers in Chromium (emulators on 127.0.0.10–209), with long names and
 * long tags: the page does not scroll sideways, neither beside the sidebar nor beside the Overview's 200
 * cards, and the sidebar's filter still finds one.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { startManyControllers, type ManyControllers } from './lab-200';
import { eventually, UI_TIMEOUT } from './ui';

const COUNT = 200;
const TAGS = ['rack 1', 'rack 2', 'bench'];
const longName = (i: number) => `Lab unit with a long name, number ${i}`;

function rows(page: Page) {
  return page.getByRole('tablist', { name: 'Controllers' }).getByRole('tab');
}

async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe('Navigation with 200 controllers in Chromium', () => {
  let lab: Lab;
  let many: ManyControllers;
  let browser: BrowserSession;

  beforeAll(async () => {
    // Polls every 10 minutes: 200 controllers on a shared machine are here for the layout only.
    lab = await startLab({ pollIntervalMs: 600_000 });
    many = await startManyControllers({ count: COUNT });
    for (let from = 0; from < COUNT; from += 20) {
      await Promise.all(
        many.units.slice(from, from + 20).map((unit, k) =>
          lab.core.handlers['controllers/add']({
            name: longName(from + k),
            url: unit.url,
            auth: { kind: 'digest', user: many.user, password: many.password },
            tags: ['a rather long tag for the layout', TAGS[(from + k) % TAGS.length]!],
          }),
        ),
      );
    }
    browser = await lab.openWindow();
  }, 240_000);
  afterAll(async () => {
    await lab?.close();
    await many?.close();
  });

  it('the page does not scroll sideways beside the sidebar or the Overview, and the filter finds one', async () => {
    const { page } = browser;
    await eventually(() => rows(page).count()).toBe(COUNT);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Overview' }).click();
    await page
      .getByRole('list', { name: `Outlets of ${longName(COUNT - 1)}` })
      .waitFor({ timeout: UI_TIMEOUT });
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.getByRole('searchbox', { name: 'Filter controllers and outlets' }).fill(`number ${COUNT - 1}`);
    await eventually(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain(longName(COUNT - 1));
  });
});
