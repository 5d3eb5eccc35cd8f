/**
 * Sequences in Chromium (issue 16 item 10): build a sequence in the group editor (the outlet filter, the
 * Save bar that stays in view, steps moved with the keyboard, a wait until confirmed and a delay), run
 * it, watch its steps, and abort it during the delay: the step after it never switches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { expectAccessible } from './a11y';
import type { BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually, openOverview, UI_TIMEOUT } from './ui';

describe('Sequences in Chromium', () => {
  let lab: Lab;
  let rackA: RunningEmulator;
  let rackB: RunningEmulator;
  let browser: BrowserSession;

  beforeAll(async () => {
    lab = await startLab({ pollIntervalMs: 500 });
    const off = Array<boolean>(8).fill(false);
    rackA = await lab.emulator({ initialStates: off });
    rackB = await lab.emulator({ initialStates: off });
    rackA.device.setOutlet(0, { name: 'Switch' });
    rackA.device.setOutlet(1, { name: 'Server' });
    rackB.device.setOutlet(3, { name: 'PSU' });
    await lab.add(rackA, 'Rack A');
    await lab.add(rackB, 'Rack B');
    browser = await lab.openWindow();
    await openOverview(browser.page);
  });
  afterAll(() => lab?.close());

  it('builds a sequence with the filter and the sticky Save, runs it, shows its steps, aborts', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1000, height: 560 });
    await page.getByRole('button', { name: 'New group' }).click();
    const editor = page.getByRole('form', { name: 'New group' });
    await editor.getByRole('textbox', { name: 'Group name' }).fill('Rack 7 power-on');
    await editor.getByRole('checkbox', { name: /^Sequence/ }).check();

    const filter = editor.getByRole('searchbox', { name: 'Filter outlets' });
    await filter.fill('psu');
    await expect(editor.getByRole('group', { name: 'Rack A' }).count()).resolves.toBe(0);
    await editor.getByRole('group', { name: 'Rack B' }).getByRole('checkbox', { name: '4 PSU' }).check();
    await filter.fill('rack a');
    await expect(editor.getByRole('group', { name: 'Rack B' }).count()).resolves.toBe(0);
    const rackAOutlets = editor.getByRole('group', { name: 'Rack A' });
    await rackAOutlets.getByRole('checkbox', { name: '1 Switch' }).check();
    await rackAOutlets.getByRole('checkbox', { name: '2 Server' }).check();
    await filter.fill('');

    // Save stays in view while the outlet lists scroll past under it.
    await rackAOutlets.getByRole('checkbox', { name: '1 Switch' }).scrollIntoViewIfNeeded();
    const save = editor.getByRole('button', { name: 'Save group' });
    const box = (await save.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(560);
    expect(box.y).toBeGreaterThanOrEqual(0);

    // Step 3 (Server) up before step 2 (Switch), with the keyboard; focus stays on the button.
    const steps = editor.getByRole('group', { name: /^Steps, in order/ });
    await steps.getByRole('button', { name: 'Move step 3 up' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(
      /^Move step/,
    );
    await expect(steps.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('Rack B outlet 4 (PSU)'),
      expect.stringContaining('Rack A outlet 2 (Server)'),
      expect.stringContaining('Rack A outlet 1 (Switch)'),
    ]);
    await steps.getByRole('combobox', { name: 'After step 1' }).selectOption('confirmed');
    await steps.getByRole('spinbutton', { name: 'Seconds after step 1' }).fill('30');
    await steps.getByRole('spinbutton', { name: 'Seconds after step 1' }).blur();
    await steps.getByRole('spinbutton', { name: 'Seconds after step 2' }).fill('600');
    await steps.getByRole('spinbutton', { name: 'Seconds after step 2' }).blur();
    await expectAccessible(page, 'the group editor making a sequence');
    await save.click();

    const card = page.getByRole('group', { name: 'Group Rack 7 power-on' });
    await card.waitFor({ timeout: UI_TIMEOUT });
    const [saved] = await lab.core.handlers['groups/list']({});
    const ids = (await lab.core.handlers['controllers/list']({})).map((c) => c.id);
    expect(saved).toMatchObject({
      kind: 'sequence',
      steps: [
        { controllerId: ids[1], outlets: [4], wait: { kind: 'confirmed', timeoutSeconds: 30 } },
        { controllerId: ids[0], outlets: [2], wait: { kind: 'delay', seconds: 600 } },
        { controllerId: ids[0], outlets: [1], wait: { kind: 'delay', seconds: 0 } },
      ],
    });

    await card.getByRole('button', { name: 'On', exact: true }).click();
    const runSteps = page.getByRole('list', { name: 'Steps of Rack 7 power-on' }).getByRole('listitem');
    await runSteps
      .nth(0)
      .getByText(/^confirmed on at /)
      .waitFor({ timeout: UI_TIMEOUT });
    await runSteps
      .nth(2)
      .getByText(/^starts in \d+:\d\d$/)
      .waitFor({ timeout: UI_TIMEOUT });
    await page.getByText(/^Running step 2 of 3$/).waitFor({ timeout: UI_TIMEOUT });
    expect(rackB.device.outlet(3).physicalState).toBe(true);
    expect(rackA.device.outlet(1).state).toBe(true);
    await expectAccessible(page, 'a running sequence with its steps');

    await page.getByRole('button', { name: 'Abort' }).click();
    await page
      .getByText(
        "Sequence 'Rack 7 power-on' was aborted before step 3 of 3: steps 1–2 done; steps done stay switched on.",
      )
      .first()
      .waitFor({ timeout: UI_TIMEOUT });
    await eventually(() => rackA.device.outlet(1).physicalState).toBe(true);
    expect(rackA.device.outlet(0).state).toBe(false);
  });
});
