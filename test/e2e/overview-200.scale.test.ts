/**
 * Issue 16 item 8 in Chromium: 200 saved controllers (emulators on 127.0.0.10–209), the compact
 * Overview keeps only the rows in view in the page, filters by tag and by "not online", and a
 * controller that stops answering moves to the top.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControllerState } from '../../src-preload/contract';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { saveAll, startManyControllers, type ManyControllers } from './lab-200';
import { eventually } from './ui';

const COUNT = 200;
/** 200 controllers polled in one process on a shared machine: every state may take a while. */
const FLEET_TIMEOUT = 120_000;

/** The controllers whose rows are in the page, top to bottom. */
function rowNames(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: /^Outlets of / })
    .evaluateAll((lists) => lists.map((l) => l.getAttribute('aria-label')!.replace('Outlets of ', '')));
}

function countText(page: Page): Promise<string> {
  return page
    .getByRole('status')
    .filter({ hasText: /controllers, problems first/ })
    .innerText();
}

/** Hooks cannot use expect.poll: wait for the Core to hold every controller online, by its events. */
async function allOnline(lab: Lab): Promise<void> {
  const online = new Set<string>();
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`only ${online.size} of ${COUNT} controllers came online`)),
      FLEET_TIMEOUT,
    );
    const look = (state: ControllerState) => {
      if (state.status === 'online') online.add(state.id);
      else online.delete(state.id);
      if (online.size === COUNT) {
        clearTimeout(timer);
        stop();
        done();
      }
    };
    const stop = lab.core.subscribe((name, payload) => {
      if (name === 'state/changed') look(payload as ControllerState);
    });
    void lab.core.handlers['app/snapshot']({}).then(({ states }) => states.forEach(look));
  });
}

describe('The Overview with 200 controllers in Chromium', { timeout: 180_000 }, () => {
  let lab: Lab;
  let many: ManyControllers;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 5000 });
    many = await startManyControllers({ count: COUNT });
    // Units 1–20 are in "rack 7", the rest on "bench".
    await saveAll(lab.core, many, (i) => [i < 20 ? 'rack 7' : 'bench']);
    await allOnline(lab);
    browser = await lab.openWindow();
  }, 300_000);
  afterAll(async () => {
    await lab?.close();
    await many?.close();
  });

  it('compact mode is remembered and keeps the page small', async () => {
    const { page } = browser;
    // Dispatched clicks: the page moves while problems are sorted first (on a loaded machine a controller
    // whose last answer is old counts), and Playwright's "stable" check would wait for it to stop.
    await page.getByRole('checkbox', { name: 'Compact' }).dispatchEvent('click');
    await eventually(async () => (await lab.core.handlers['settings/get']({})).overviewCompact).toBe(true);
    const list = page.getByRole('list', { name: 'Controllers', exact: true });
    // Taking down 200 tiles (1,600 outlet buttons) is the slow part on a loaded 2-core machine.
    await list.waitFor({ timeout: FLEET_TIMEOUT });
    expect(await list.locator(':scope > li').first().getAttribute('aria-setsize')).toBe(String(COUNT));
    const rows = await list.locator(':scope > li').count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(40);
    expect(await countText(page)).toContain(`${COUNT} controllers`);
    await saveScreenshot(page, 'overview-200-compact');
    await expectAccessible(page, 'Overview, compact, 200 controllers');

    // Still compact after a reload: the setting came from the Core.
    await page.reload();
    await list.waitFor({ timeout: FLEET_TIMEOUT });
  });

  it('filters by tag', async () => {
    const { page } = browser;
    await page.getByRole('combobox', { name: 'Tag' }).selectOption('rack 7');
    await eventually(() => countText(page)).toContain('20 of 200 controllers');
    const names = await rowNames(page);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => Number(n.replace('Unit ', '')) <= 20)).toBe(true);
    await page.getByRole('combobox', { name: 'Tag' }).selectOption('');
    await eventually(() => countText(page)).toContain(`${COUNT} controllers`);
  });

  it('a controller that stops answering moves to the top and passes the "Not online" filter', async () => {
    const { page } = browser;
    const victim = many.units[149]!;
    expect((await rowNames(page)).includes(victim.name)).toBe(false);
    await victim.emulator.close();
    await eventually(async () => (await rowNames(page))[0], FLEET_TIMEOUT).toBe(victim.name);
    await page.getByRole('button', { name: 'Not online' }).dispatchEvent('click');
    await eventually(() => countText(page)).toMatch(/^\d+ of 200 controllers/);
    const names = await rowNames(page);
    expect(names[0]).toBe(victim.name);
    // Only those not online: on an idle machine just the victim (others time out only under heavy load).
    expect(names.length).toBeLessThan(10);
    await page.getByRole('button', { name: 'Not online' }).dispatchEvent('click');
    expect(browser.errors).toEqual([]);
  });
});
