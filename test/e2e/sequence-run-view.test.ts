/**
 * A sequence's run in Chromium: its steps, numbered as the editor numbers them, each saying where it is
 * (switched at, waiting for confirmation, starts in, to come), a countdown on the step that waits (driven
 * by the page's clock), the log tucked away under the steps, and the card taking the Overview's whole
 * width instead of a 320 px tile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, openOverview, pausePageClock, UI_TIMEOUT } from './ui';

describe('A sequence run in Chromium', () => {
  let lab: Lab;
  let rack: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 500 });
    rack = await lab.emulator({ initialStates: Array<boolean>(8).fill(false) });
    const { id } = await lab.add(rack, 'Rack A');
    await lab.core.handlers['sequences/save']({
      name: 'Rack 7 power-on',
      steps: [
        { controllerId: id, outlets: [1], wait: { kind: 'confirmed', timeoutSeconds: 30 } },
        { controllerId: id, outlets: [2, 3], wait: { kind: 'delay', seconds: 600 } },
        { controllerId: id, outlets: [4], wait: { kind: 'delay', seconds: 0 } },
      ],
    });
    browser = await lab.openWindow({ pageClock: true });
    await openOverview(browser.page);
  });
  afterAll(() => lab?.close());

  it('shows each step where it is, with a countdown on the one that waits, in a card as wide as the page', async () => {
    const { page } = browser;
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('group', { name: 'Group Rack 7 power-on' }) });
    const narrow = (await card.boundingBox())!.width;
    await card.getByRole('button', { name: 'On', exact: true }).click();
    const steps = page.getByRole('list', { name: 'Steps of Rack 7 power-on' });
    const step = (n: number) => steps.getByRole('listitem').nth(n - 1);
    await eventually(() => step(3).innerText()).toMatch(/starts in \d+:\d\d/);
    await pausePageClock(page);

    expect((await step(1).innerText()).replace(/\s+/g, ' ')).toMatch(
      /^1 Step 1: Rack A outlet 1 confirmed on at .+ then waits for confirmation, at most 30 s$/,
    );
    expect((await step(2).innerText()).replace(/\s+/g, ' ')).toMatch(
      /^2 Step 2: Rack A outlets 2, 3 switched on at .+ then 10:00$/,
    );
    // The countdown is on step 3, the one that waits, and follows the clock.
    const seconds = async () => {
      const [, m, s] = /starts in (\d+):(\d\d)/.exec(await step(3).innerText())!;
      return Number(m) * 60 + Number(s);
    };
    const before = await seconds();
    expect(before).toBeGreaterThan(500);
    expect(before).toBeLessThanOrEqual(600);
    await page.clock.runFor(65_000);
    await eventually(seconds).toBe(before - 65);
    expect(await step(3).getAttribute('aria-current')).toBeNull();
    expect(await step(2).getAttribute('aria-current')).toBe('step');
    // The status says which step, not a number that changes every second.
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /^Running step/ })
        .innerText(),
    ).toBe('Running step 2 of 3');

    // Nothing numbered but the steps: the log is under its own heading, closed.
    expect(await page.getByRole('list', { name: 'Log of Rack 7 power-on' }).isVisible()).toBe(false);
    // Screenshots and axe wait for animation frames: the page's clock runs again.
    await page.clock.resume();
    const wide = (await card.boundingBox())!.width;
    expect(wide).toBeGreaterThan(narrow * 1.5);
    await saveScreenshot(page, 'sequence-run', { fullPage: false });
    await expectAccessible(page, 'A sequence waiting before its last step');

    await card.getByRole('button', { name: 'Abort' }).click();
    await eventually(() => step(3).innerText()).toMatch(/not run/);
    await page.getByText('Log (', { exact: false }).click();
    await page.getByRole('list', { name: 'Log of Rack 7 power-on' }).waitFor({ timeout: UI_TIMEOUT });
    expect(browser.errors).toEqual([]);
  });
});
