/**
 * The picture in the README: a bench with three tagged controllers in the sidebar, the Outlets tab of
 * one of them in the middle of its day (a critical outlet, a locked one, a temporary state, a cycle counting down).
 * Saved as test-results/screenshots/readme.png on every run; copied to resources/screenshot.png when
 * that file is missing or UPDATE_README_SCREENSHOT=1 (a committed picture should not change on every
 * test run).
 */
import { copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { repoRoot, saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, openSection, outletRow, physicalShown, UI_TIMEOUT, waitForStatus } from './ui';

const README_SCREENSHOT = join(repoRoot, 'resources', 'screenshot.png');

describe('The README screenshot', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({
      name: 'Bench A',
      model: 'LPC9',
      initialStates: [true, true, true, true, true, false, true, false],
    });
    const rack = await lab.emulator({ name: 'Rack 7', meters: false, firmware: '1.10.15.0' });
    const lab2 = await lab.emulator({ name: 'Soldering', meters: false });
    [
      'Router',
      'Switch',
      'Scope',
      'Signal generator',
      'DUT power',
      'Logic analyser',
      'Bench lamp',
      'Fan',
    ].forEach((name, i) => bench.device.setOutlet(i, { name }));
    bench.device.setCritical(0, true);
    bench.device.lock(7);
    bench.device.setOutlet(4, { cycleDelay: 8 });
    const tag = (id: string, tags: string[]) => lab.core.handlers['controllers/update']({ id, tags });
    await tag((await lab.add(bench, 'Bench A')).id, ['bench', 'ci']);
    await tag((await lab.add(rack, 'Rack 7')).id, ['rack 7']);
    await tag((await lab.add(lab2, 'Soldering bench')).id, ['bench']);
    browser = await lab.openWindow();
    for (const name of ['Bench A', 'Rack 7', 'Soldering bench'])
      await waitForStatus(browser.page, name, 'online');
  });
  afterAll(() => lab?.close());

  it('shows the Outlets tab mid-cycle and saves the picture', async () => {
    const { page } = browser;
    // Wide enough for the sidebar beside a full outlet row (a laptop's 1440 px).
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSection(page, 'Bench A', 'Outlets');
    const lamp = outletRow(page, 7, 'Bench lamp');
    await lamp.getByRole('switch', { name: 'Temporary state of outlet 7 (Bench lamp)' }).click();
    await eventually(() => physicalShown(lamp)).toBe('off');
    await outletRow(page, 5, 'DUT power').getByRole('button', { name: 'Cycle outlet 5 (DUT power)' }).click();
    await outletRow(page, 5, 'DUT power').getByRole('timer').waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => outletRow(page, 5, 'DUT power').getByRole('timer').innerText()).toMatch(
      /back on in [4-8] s/,
    );
    await page.mouse.move(0, 0);
    const path = await saveScreenshot(page, 'readme');
    if (!existsSync(README_SCREENSHOT) || process.env.UPDATE_README_SCREENSHOT === '1') {
      await copyFile(path, README_SCREENSHOT);
    }
    expect(existsSync(README_SCREENSHOT)).toBe(true);
    await expectAccessible(page, 'Outlets mid-cycle');
    await eventually(() => bench.device.outlet(4).physicalState, 30_000).toBe(true);
    expect(browser.errors).toEqual([]);
  });
});
