/**
 * "Needs attention" in Chromium: a fixed place, so the Overview's tiles keep their positions while a
 * meter crosses its limit back and forth (each crossing is measured), readings shown with the digit that
 * decides them; controllers that fail for the same reason are one message with "Retry all now"; a
 * refused login says that Plugboard stopped trying, and takes the password in place.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControllerState } from '../../src-preload/contract';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { controllerTab, eventually, mainText, openOverview, UI_TIMEOUT, waitForStatus } from './ui';

/** Where each controller's tile is on the page: its top-left corner and size, in CSS pixels. */
function tileBoxes(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: /^Outlets of / }).evaluateAll((lists) =>
    lists.map((list) => {
      const box = list.closest('article')!.getBoundingClientRect();
      return `${list.getAttribute('aria-label')} ${box.x},${box.y + window.scrollY} ${box.width}×${box.height}`;
    }),
  );
}

/** The messages in "Needs attention", one string each, spaces collapsed. */
function messages(page: Page): Promise<string[]> {
  return page
    .getByRole('region', { name: 'Needs attention' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
}

describe('Needs attention in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let rack: RunningEmulator;
  let shelf: RunningEmulator;
  let browser: BrowserSession;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 500 });
    bench = await lab.emulator({ name: 'Bench A' });
    rack = await lab.emulator({ name: 'Rack 7', meters: false });
    shelf = await lab.emulator({ name: 'Shelf 2', meters: false });
    bench.device.setMeter('buses.0.voltage', 120.4);
    for (const [emu, name] of [
      [bench, 'Bench A'],
      [rack, 'Rack 7'],
      [shelf, 'Shelf 2'],
    ] as const)
      ids[name] = (await lab.add(emu, name)).id;
    // No hold time here: every crossing is a breach that comes or goes, the worst case for the page.
    await lab.core.handlers['settings/set']({
      meterLimitHoldSeconds: 0,
      meterThresholds: [{ controllerId: ids['Bench A']!, key: 'buses.0.voltage', min: null, max: 120.5 }],
    });
    browser = await lab.openWindow();
  });
  afterAll(() => lab?.close());

  it('the tiles keep their positions while a meter crosses its limit back and forth', async () => {
    const { page } = browser;
    await openOverview(page);
    await eventually(() => page.getByRole('list', { name: /^Outlets of / }).count()).toBe(3);
    await eventually(() => mainText(page)).toContain('Nothing needs attention');
    const before = await tileBoxes(page);
    const seen: string[][] = [];
    for (let crossing = 1; crossing <= 6; crossing++) {
      const outside = crossing % 2 === 1;
      bench.device.setMeter('buses.0.voltage', outside ? 120.53 : 120.47);
      // The breach is shown (or gone) before the tiles are measured: each crossing is on the page.
      if (outside) {
        await eventually(() => messages(page)).toEqual([
          expect.stringMatching(
            /^Bench A: AC voltage 120\.53 V above the maximum of 120\.5 V Outside since /,
          ),
        ]);
        if (crossing === 1) await saveScreenshot(page, 'overview-attention-breach');
      } else await eventually(() => mainText(page)).toContain('Nothing needs attention');
      seen.push(await tileBoxes(page));
    }
    for (const boxes of seen) expect(boxes).toEqual(before);
    await expectAccessible(page, 'Overview, a meter outside its limit');
  });

  it('two controllers offline for the same reason are one message, and Retry all now reaches them at once', async () => {
    const { page } = browser;
    await Promise.all([rack.device.goOffline(), shelf.device.goOffline()]);
    const grouped = /^2 controllers offline \(connection refused\): Rack 7 and Shelf 2 /;
    await eventually(() => messages(page), 60_000).toContainEqual(expect.stringMatching(grouped));
    const message = (await messages(page)).find((m) => grouped.test(m))!;
    // A headline and one detail line: what Plugboard does about it and what to do.
    expect(message).toMatch(/Plugboard keeps trying\. Check the address and that the controller is powered/);
    expect(message).not.toMatch(/Nothing answered at that address|What to do/);
    await saveScreenshot(page, 'overview-grouped-offline');

    // Let the back-off plan the next attempts several seconds ahead, then bring the units back.
    const nextAttempt = async () => {
      const { states } = await lab.core.handlers['app/snapshot']({});
      const planned = states
        .filter((s) => s.id === ids['Rack 7'] || s.id === ids['Shelf 2'])
        .map((s) => s.nextAttemptAt ?? 0);
      return Math.min(...planned) - Date.now();
    };
    await eventually(nextAttempt, 60_000).toBeGreaterThan(5000);
    const planned = Date.now() + (await nextAttempt());
    await Promise.all([rack.device.comeBack(), shelf.device.comeBack()]);
    const online = new Map<string, number>();
    const stop = lab.core.subscribe((name, payload) => {
      const state = payload as ControllerState;
      if (name === 'state/changed' && state.status === 'online' && !online.has(state.id))
        online.set(state.id, Date.now());
    });
    await page
      .getByRole('region', { name: 'Needs attention' })
      .getByRole('button', { name: 'Retry all now' })
      .click();
    await waitForStatus(page, 'Rack 7', 'online');
    await waitForStatus(page, 'Shelf 2', 'online');
    stop();
    // Both answered before the back-off would have tried again: the button did it.
    expect(Math.max(...online.values())).toBeLessThan(planned);
    await eventually(() => mainText(page)).toContain('Nothing needs attention');
  }, 150_000);

  it('a refused login says that Plugboard stopped trying, and takes the password in place', async () => {
    const { page } = browser;
    shelf.device.setPassword('admin', 'new-secret');
    await waitForStatus(page, 'Shelf 2', 'auth problem', 60_000);
    expect(await messages(page)).toContainEqual(
      'Shelf 2 does not accept the saved login (user "admin") Plugboard stopped trying, so the user is not locked out: open it to enter the password. Open Shelf 2',
    );
    await controllerTab(page, 'Shelf 2').click();
    const header = page.locator('header.controller-header');
    expect((await header.innerText()).replace(/\s+/g, ' ')).toContain(
      'Plugboard stopped trying, so the user is not locked out: enter the password below.',
    );
    // Nothing on the page promises that the controls come back by themselves.
    expect(await mainText(page)).not.toMatch(/come back when it answers|keeps trying/);
    const login = page.getByRole('form', { name: 'Log in again' });
    await saveScreenshot(page, 'auth-banner');
    await expectAccessible(page, 'A controller that refuses the saved login');

    await login.getByLabel('Password for admin').fill('not-it');
    await login.getByRole('button', { name: 'Check and connect' }).click();
    await eventually(() => header.innerText()).toMatch(/Plugboard did not connect\./);
    expect(await controllerTab(page, 'Shelf 2').innerText()).toContain('auth problem');

    await login.getByLabel('Password for admin').fill('new-secret');
    await login.getByRole('button', { name: 'Check and connect' }).click();
    await waitForStatus(page, 'Shelf 2', 'online');
    await login.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    expect(browser.errors).toEqual([]);
  });
});
