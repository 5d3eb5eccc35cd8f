/**
 * One message per cause at the scale of a lab, in Chromium: 200 controllers (emulators on
 * 127.0.0.10–209) saved, then Plugboard started again where no keychain answers. The password prompt
 * offers no "Remember" (it says why beside the field) and one Connect answers with one line, not 200;
 * then the whole lab is switched off and the Overview says so in one message naming the controllers.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src-main/core/index';
import { MemoryStore } from '../../src-main/core/index';
import { MemorySecretStore } from '../../src-main/secrets';
import type { ControllerState } from '../../src-preload/contract';
import { expectAccessible } from './a11y';
import {
  launchBrowser,
  packageVersion,
  saveScreenshot,
  startWebApp,
  type BrowserSession,
  type WebApp,
} from './harness';
import { saveAll, startManyControllers, type ManyControllers } from './lab-200';
import { eventually, openApp } from './ui';

const COUNT = 200;
/** 200 controllers polled in one process on a shared machine: every state may take a while. */
const FLEET_TIMEOUT = 120_000;
/** What the keychain said when Plugboard tried it (keychainOrMemory keeps it for the window). */
const WHY = 'No Secret Service is running';

/** The messages in "Needs attention", one string each, spaces collapsed. */
function messages(page: Page): Promise<string[]> {
  return page
    .getByRole('region', { name: 'Needs attention' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
}

/** Wait, by the Core's events, until every controller has the status `status`. */
function allAre(core: Core, status: ControllerState['status']): Promise<void> {
  const reached = new Set<string>();
  return new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`only ${reached.size} of ${COUNT} controllers became ${status}`)),
      FLEET_TIMEOUT,
    );
    const look = (state: ControllerState) => {
      if (state.status === status) reached.add(state.id);
      else reached.delete(state.id);
      if (reached.size === COUNT) {
        clearTimeout(timer);
        stop();
        done();
      }
    };
    const stop = core.subscribe((name, payload) => {
      if (name === 'state/changed') look(payload as ControllerState);
    });
    void core.handlers['app/snapshot']({}).then(({ states }) => states.forEach(look));
  });
}

describe('A lab of 200 without a keychain, then switched off', { timeout: 240_000 }, () => {
  let many: ManyControllers;
  let core: Core;
  let app: WebApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    many = await startManyControllers({ count: COUNT });
    const store = new MemoryStore();
    const before = createCore({
      shell: 'web',
      version: packageVersion,
      store,
      secrets: new MemorySecretStore(),
      dataDir: null,
      visible: false,
      log: () => undefined,
    });
    await saveAll(before, many);
    await before.dispose();
    // Started again on the same settings where no keychain answers: every password is gone.
    core = createCore({
      shell: 'web',
      version: packageVersion,
      store,
      secrets: new MemorySecretStore(WHY),
      dataDir: null,
      log: () => undefined,
    });
    await core.handlers['settings/set']({ pollIntervalMs: 5000 });
    app = await startWebApp({ core });
    browser = await launchBrowser();
    await openApp(browser.page, app.url);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await core?.dispose();
    await many?.close();
  });

  it('asks once, without "Remember" and saying why, and Connect answers with one line, not 200', async () => {
    const { page } = browser;
    const prompt = page.getByRole('group', { name: `Enter the password for admin on ${COUNT} controllers` });
    await prompt.waitFor({ timeout: FLEET_TIMEOUT });
    expect(await prompt.getByRole('checkbox').count()).toBe(0);
    const password = prompt.getByLabel('Password for admin');
    expect(await password.getAttribute('aria-describedby')).not.toBeNull();
    expect(await prompt.innerText()).toContain(
      `Not remembered: no system keychain answered (${WHY}), so Plugboard keeps it until it stops.`,
    );
    await saveScreenshot(page, 'no-keychain-prompt', { fullPage: false });
    await password.fill(many.password);
    await prompt.getByRole('button', { name: 'Connect' }).click();
    const status = page.getByRole('region', { name: 'Passwords needed' }).getByRole('status');
    await eventually(() => status.innerText(), FLEET_TIMEOUT).toContain(
      `Connected ${COUNT} of ${COUNT} controllers.`,
    );
    // Nothing to say controller by controller: no list of 200 lines under it.
    expect(await status.getByRole('listitem').count()).toBe(0);
    const box = await status.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(page.viewportSize()!.height);
    await saveScreenshot(page, 'no-keychain-connect', { fullPage: false });
    await expectAccessible(page, 'Connected without a keychain');
    await status.getByRole('button', { name: 'Dismiss' }).click();
  });

  it('a lab switched off is one message naming the controllers, with Retry all now', async () => {
    const { page } = browser;
    await allAre(core, 'online');
    await Promise.all(many.units.map((unit) => unit.emulator.device.goOffline()));
    await allAre(core, 'offline');
    // Requests on their way when the units went away may fail otherwise (a reset): the next ones are refused.
    await eventually(() => messages(page), FLEET_TIMEOUT).toEqual([
      expect.stringMatching(
        /^200 controllers offline \(connection refused\): Unit 001, Unit 002, Unit 003, Unit 004, Unit 005 and 195 more Plugboard keeps trying\. .+ Retry all now$/,
      ),
    ]);
    const region = page.getByRole('region', { name: 'Needs attention' });
    expect(await region.getByRole('button', { name: 'Retry all now' }).isVisible()).toBe(true);
    const box = await region.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(page.viewportSize()!.height);
    await saveScreenshot(page, 'overview-200-offline', { fullPage: false });
    await expectAccessible(page, 'Overview, 200 controllers offline');
    expect(browser.errors).toEqual([]);
  }, 200_000);
});
