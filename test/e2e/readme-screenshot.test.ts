/**
 * The picture in the README: a bench with three tagged controllers in the sidebar, the Outlets tab of
 * one of them in the middle of its day (a critical outlet, a locked one, a temporary state, a cycle counting down).
 * Saved as test-results/screenshots/readme.png on every run; copied to resources/screenshot.png when
 * that file is missing or UPDATE_README_SCREENSHOT=1 (a committed picture should not change on every
 * test run). The page's clock stands still from the checks to the shot, and the cycle's off-time is
 * longer than the test may run, so the picture shows what the checks saw; the PNG itself is then
 * decoded and checked for its size and for the countdown's text where the countdown is.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { repoRoot, saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import {
  eventually,
  openSection,
  outletRow,
  pausePageClock,
  physicalShown,
  UI_TIMEOUT,
  waitForStatus,
} from './ui';

const README_SCREENSHOT = join(repoRoot, 'resources', 'screenshot.png');
/** DUT power's off-time: longer than the test may run (its timeout), so the cycle is still on at the shot. */
const CYCLE_SECONDS = 90;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface DecodedShot {
  width: number;
  height: number;
  /** Distinct colours in the whole picture. */
  colours: number;
  /** Pixels inside `box` within a small distance of `colour`. */
  near: number;
}

/**
 * Decode a PNG with the browser's own decoder (a page of its own, no app code) and measure it: its
 * size, how many colours it has, and how many pixels inside `box` are close to `colour` (rgb()).
 */
async function decodeShot(page: Page, png: Buffer, box: Box, colour: string): Promise<DecodedShot> {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ({ base64, box, colour }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
        const seen = new Set<number>();
        for (let i = 0; i < data.length; i += 4)
          seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        const [r, g, b] = (colour.match(/\d+/g) ?? []).map(Number);
        let near = 0;
        for (let y = Math.floor(box.y); y < Math.ceil(box.y + box.height); y++)
          for (let x = Math.floor(box.x); x < Math.ceil(box.x + box.width); x++) {
            const i = (y * bitmap.width + x) * 4;
            const distance =
              Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!);
            if (distance <= 60) near++;
          }
        return { width: bitmap.width, height: bitmap.height, colours: seen.size, near };
      },
      { base64: png.toString('base64'), box, colour },
    );
  } finally {
    await blank.close();
  }
}

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
    bench.device.setOutlet(4, { cycleDelay: CYCLE_SECONDS });
    const tag = (id: string, tags: string[]) => lab.core.handlers['controllers/update']({ id, tags });
    await tag((await lab.add(bench, 'Bench A')).id, ['bench', 'ci']);
    await tag((await lab.add(rack, 'Rack 7')).id, ['rack 7']);
    await tag((await lab.add(lab2, 'Soldering bench')).id, ['bench']);
    browser = await lab.openWindow({ pageClock: true });
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
    await lamp.getByRole('button', { name: 'More actions for outlet 7 (Bench lamp)' }).click();
    await page.getByRole('menuitem', { name: /^Switch off temporarily/ }).click();
    await eventually(() => physicalShown(lamp)).toBe('off');
    const lampNote = lamp.getByText(/^Temporarily off:/);
    await lampNote.waitFor({ timeout: UI_TIMEOUT });
    const dut = outletRow(page, 5, 'DUT power');
    await dut.getByRole('button', { name: 'Cycle outlet 5 (DUT power)' }).click();
    const timer = dut.getByRole('timer');
    await timer.waitFor({ timeout: UI_TIMEOUT });
    await page.mouse.move(0, 0);

    // What the picture must show, checked with the page's clock stopped until the shot is taken.
    await pausePageClock(page);
    const countdown = await timer.innerText();
    expect(countdown.trim()).toMatch(/^Off — back on in \d+ s$/);
    const left = Number(/^Off — back on in (\d+) s$/.exec(countdown.trim())?.[1]);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(CYCLE_SECONDS);
    expect(await physicalShown(dut)).toBe('off');
    expect(bench.device.outlet(4)).toMatchObject({ cycling: true, physicalState: false });
    expect(await lampNote.innerText()).toBe(
      'Temporarily off: saved state on, so it goes back to on when the controller restarts.',
    );
    expect(bench.device.outlet(6)).toMatchObject({ state: true, transientState: false });
    expect(await outletRow(page, 1, 'Router').innerText()).toContain('Critical');
    expect(await outletRow(page, 8, 'Fan').innerText()).toContain('Locked');
    const place = await timer.evaluate((el) => {
      const rect = el.getBoundingClientRect();
      return {
        box: {
          x: rect.x + window.scrollX,
          y: rect.y + window.scrollY,
          width: rect.width,
          height: rect.height,
        },
        colour: getComputedStyle(el).color,
        page: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
      };
    });

    const path = await saveScreenshot(page, 'readme');
    expect((await timer.innerText()).trim()).toBe(countdown.trim());
    const shot = await decodeShot(page, await readFile(path), place.box, place.colour);
    expect({ width: shot.width, height: shot.height }).toEqual(place.page);
    expect(shot.width).toBe(1440);
    // A drawn window, not a blank page; and the countdown's text is where the countdown is.
    expect(shot.colours).toBeGreaterThan(100);
    expect(shot.near).toBeGreaterThan(20);
    if (!existsSync(README_SCREENSHOT) || process.env.UPDATE_README_SCREENSHOT === '1') {
      await copyFile(path, README_SCREENSHOT);
    }
    await page.clock.resume();
    await expectAccessible(page, 'Outlets mid-cycle');
    expect(browser.errors).toEqual([]);
  });
});
