/**
 * Reservations in Chromium: the window reserves an outlet, someone else (bob, through the CLI door of
 * the same Core) is refused with the holder named and nothing reaches the controller, the window shows
 * bob's reservation with its switches disabled and why, and after the window releases, bob switches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { dispatch, osUserName } from '../../src-main/core/index';
import type { Reservation, Result } from '../../src-preload/contract';
import { expectAccessible } from './a11y';
import type { BrowserSession } from './harness';
import { startLab, writes, type Lab } from './lab';
import { eventually, openSection, outletRow, UI_TIMEOUT } from './ui';

describe('Reservations in Chromium', () => {
  let lab: Lab;
  let bench: RunningEmulator;
  let browser: BrowserSession;
  const asBob = (name: string, input: unknown) =>
    dispatch(
      lab.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' }),
      name,
      input,
      () => undefined,
    ) as Promise<Result<unknown>>;

  beforeAll(async () => {
    lab = await startLab();
    bench = await lab.emulator({ name: 'Bench A' });
    bench.device.setOutlet(2, { name: 'Scope' });
    bench.device.setOutlet(3, { name: 'Router' });
    await lab.add(bench, 'Bench A');
    browser = await lab.openWindow();
    await openSection(browser.page, 'Bench A', 'Outlets');
    await outletRow(browser.page, 3, 'Scope').waitFor({ timeout: UI_TIMEOUT });
  });
  afterAll(() => lab?.close());

  it('take in the window → someone else’s switch refused naming the holder → release', async () => {
    const { page } = browser;
    const row = outletRow(page, 3, 'Scope');
    await row.getByRole('button', { name: 'Reserve outlet 3 (Scope)' }).click();
    await expectAccessible(page, 'the reserve form of an outlet');
    await row.getByRole('textbox', { name: 'Why you reserve outlet 3 (Scope)' }).fill('flashing firmware');
    await row.getByRole('combobox', { name: 'How long to reserve outlet 3 (Scope)' }).selectOption('2 hours');
    await row.getByRole('button', { name: 'Reserve', exact: true }).click();
    await row.getByText(/^Reserved by you until .*: flashing firmware$/).waitFor({ timeout: UI_TIMEOUT });

    const [held] = (await lab.core.handlers['reservations/list']({})) as Reservation[];
    expect(held).toMatchObject({
      target: { kind: 'outlet', outlet: 3 },
      holder: osUserName(),
      door: 'web',
      reason: 'flashing firmware',
    });
    const controllerId = (await lab.core.handlers['controllers/list']({}))[0]!.id;
    const before = writes(bench).length;
    const refused = await asBob('outlets/cycle', {
      controllerId,
      outlet: 3,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'RESERVED', detail: { holder: osUserName() } },
    });
    if (!refused.ok)
      expect(refused.error.message).toMatch(
        new RegExp(
          `^Outlet 3 \\(Scope\\) on Bench A is reserved by ${osUserName()} until .*: flashing firmware\\.$`,
        ),
      );
    expect(writes(bench).length).toBe(before);

    // Bob's own reservation: the window disables outlet 4 and says who holds it and why.
    expect(
      await asBob('reservations/take', {
        target: { kind: 'outlet', controllerId, outlet: 4 },
        reason: 'bisecting a kernel',
        durationMs: 3_600_000,
      }),
    ).toMatchObject({ ok: true });
    const router = outletRow(page, 4, 'Router');
    const on = router.getByRole('switch', { name: 'Power of outlet 4 (Router)' });
    await eventually(() => on.isDisabled()).toBe(true);
    expect(await router.innerText()).toMatch(
      /Reserved by bob until .*: bisecting a kernel\. Ask bob, or break the reservation\./,
    );
    await expectAccessible(page, 'an outlet someone else reserved');

    await row.getByRole('button', { name: 'Release the reservation of outlet 3 (Scope)' }).click();
    await row.getByRole('button', { name: 'Reserve outlet 3 (Scope)' }).waitFor({ timeout: UI_TIMEOUT });
    expect(await asBob('outlets/set', { controllerId, outlets: [3], on: true })).toMatchObject({ ok: true });
    await eventually(() => bench.device.outlet(2).state).toBe(true);
    expect(browser.errors).toEqual([]);
  });
});
