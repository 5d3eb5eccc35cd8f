/**
 * The built desktop app — out/main, out/preload and out/renderer together — under the Electron
 * stand-in, against emulated controllers on 127.0.0.1 and a real Secret Service. One app run goes
 * from an empty config to Quit; a second run against the same config folder and keychain follows.
 */
import { readFile, rm, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator/index';
import type { ControllerState, PlugboardApi } from '../../src-preload/contract';
import type { MenuItemView } from './standin/recorders';
import {
  APP_TIMEOUT,
  appIndex,
  type DesktopApp,
  eventually,
  exitOf,
  startDesktopApp,
  trayItem,
  until,
} from './desktop-app';

declare global {
  interface Window {
    plugboard: PlugboardApi;
    seen: ControllerState[];
  }
}

const PASSWORD = 'stand-in secret 7f3e';
const emulatorOptions = {
  cycleDelay: 1,
  sequenceDelay: 0.05,
  rebootSeconds: 2,
  latency: 0,
  host: '127.0.0.1',
  port: 0,
};

function tab(page: Page, name: string, status: string) {
  return page
    .getByRole('tablist', { name: 'Controllers' })
    .getByRole('tab', { name: new RegExp(`^${name} ${status}`) });
}

describe('The desktop app under the Electron stand-in', () => {
  let home: string;
  let configDir: string;
  let benchA: RunningEmulator;
  let benchB: RunningEmulator;
  let app: DesktopApp;
  let page: Page;
  const apps: DesktopApp[] = [];
  /** Console errors and uncaught errors of the app's page, from when the test connects to it. */
  const pageErrors: string[] = [];

  const start = async () => {
    app = await startDesktopApp({ home, configDir });
    apps.push(app);
    page = await app.page();
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(`uncaught: ${error.message}`));
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'plugboard-desktop-home-'));
    configDir = join(home, 'plugboard-config');
    benchA = await startEmulator({
      ...emulatorOptions,
      name: 'Bench A',
      password: PASSWORD,
      initialStates: [true, false, false, false, false, false, false, false],
    });
    benchA.device.setOutlet(0, { name: 'Router' });
    benchA.device.setOutlet(1, { name: 'Lamp' });
    benchB = await startEmulator({ ...emulatorOptions, name: 'Bench B', password: PASSWORD });
    await start();
  });

  afterAll(async () => {
    for (const running of apps) await running.close();
    await Promise.all([benchA, benchB].map((bench) => bench?.close().catch(() => undefined)));
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('boots with an empty config, runs the preload in the sandbox and shows the window', async () => {
    await page.getByRole('heading', { name: 'No controllers yet' }).waitFor({ timeout: APP_TIMEOUT });
    const state = await app.state();
    expect(state.preloadErrors).toEqual([]);
    expect(state.sandboxEnabled).toBe(true);
    expect(state.windows).toEqual([
      // The window's place is in its address (#/local/overview).
      expect.objectContaining({ url: `${pathToFileURL(appIndex).href}#/local/overview`, visible: true }),
    ]);
    expect(state.windows[0]!.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
    expect(trayItem(state.tray!.menu as MenuItemView[], /^No controllers yet$/)).toBeDefined();
    // The page got only what the preload exposed: no require, no process, no ipcRenderer.
    expect(
      await page.evaluate(() => [
        typeof window.plugboard.app.info,
        typeof (window as unknown as { require?: unknown }).require,
        typeof (window as unknown as { process?: unknown }).process,
      ]),
    ).toEqual(['function', 'undefined', 'undefined']);
    // Nor the stand-in's own IPC binding: the sandbox takes it off the window before the page runs.
    expect(
      await page.evaluate(() =>
        Object.getOwnPropertyNames(window).filter((n) => n.startsWith('__standInIpc')),
      ),
    ).toEqual([]);
  });

  it('loads the page from file:// with its meta CSP in force', async () => {
    expect(
      await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'),
    ).toContain("script-src 'self'");
    // script-src 'self': an inline script the page adds is refused, with a violation report.
    const inline = await page.evaluate(async () => {
      const violation = new Promise<string>((resolve) =>
        document.addEventListener('securitypolicyviolation', (event) => resolve(event.violatedDirective), {
          once: true,
        }),
      );
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inlineRan = "yes"';
      document.head.append(script);
      return { ran: document.body.dataset['inlineRan'] ?? 'no', violated: await violation };
    });
    expect(inline).toEqual({ ran: 'no', violated: expect.stringMatching(/^script-src/) });
  });

  it('adds a controller through the window and switches an outlet on the device', async () => {
    const settings = await page.evaluate(() => window.plugboard.settings.set({ pollIntervalMs: 500 }));
    expect(settings.ok).toBe(true);
    await page.getByRole('button', { name: 'Add controller' }).click();
    const form = page.getByRole('form', { name: 'By address' });
    await form.getByRole('textbox', { name: 'Address' }).fill(benchA.url.replace('http://', ''));
    await form.getByRole('textbox', { name: 'Name in Plugboard (optional)' }).fill('Bench A');
    await form.getByRole('textbox', { name: 'User' }).fill('admin');
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Add this controller' }).click();
    await tab(page, 'Bench A', 'online').waitFor({ timeout: APP_TIMEOUT });

    await tab(page, 'Bench A', 'online').click();
    await page
      .getByRole('tablist', { name: 'Sections of Bench A' })
      .getByRole('tab', { name: 'Outlets', exact: true })
      .click();
    await page.getByRole('switch', { name: 'Power of outlet 1 (Router)' }).click();
    await eventually(() => benchA.device.outlet(0).physicalState).toBe(false);
    expect(benchA.device.outlet(0).state).toBe(false);
  });

  it('pushes state events into the page through the bridge', async () => {
    await page.evaluate(() => {
      window.seen = [];
      window.plugboard.on('state/changed', (state) => window.seen.push(state));
    });
    // Switched by hand at the controller: only a pushed state can tell the page.
    benchA.device.setOutlet(1, { state: true });
    const pushed = await until(
      () =>
        page.evaluate(
          () => window.seen.find((s) => s.outlets.some((o) => o.number === 2 && o.physicalState)) ?? null,
        ),
      'a state/changed event with outlet 2 on',
    );
    const saved = await page.evaluate(() => window.plugboard.controllers.list({}));
    expect(saved.ok && saved.value.find((c) => c.id === pushed.id)?.name).toBe('Bench A');
  });

  it('shows the controller in the tray menu; a tray item switches an outlet', async () => {
    const item = await until(async () => {
      const menu = (await app.state()).tray!.menu as MenuItemView[];
      const lamp = trayItem(menu, /Lamp/);
      return lamp?.enabled && lamp.checked ? lamp : null;
    }, 'an enabled, checked tray item for the Lamp outlet');
    expect(trayItem((await app.state()).tray!.menu as MenuItemView[], /^Bench A/)?.type).toBe('submenu');
    await app.clickTray(item.id!);
    await eventually(() => benchA.device.outlet(1).physicalState).toBe(false);
  });

  it('refuses IPC from a page at another URL (the ipcMain sender check)', async () => {
    const other = join(home, 'other.html');
    await writeFile(other, '<!doctype html><title>Not Plugboard</title><p>elsewhere</p>');
    const url = pathToFileURL(other).href;
    const windowId = await app.openWindow(url, (await app.state()).windows[0]!.id);
    const foreign = await app.page(url);
    const answer = await foreign.evaluate(() =>
      window.plugboard.app.info({}).then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    expect(answer).toMatch(/refused app\/info: the sender .* is not the app's own page/);
    expect((await page.evaluate(() => window.plugboard.app.info({}))).ok).toBe(true);
    await app.closeWindow(windowId);
  });

  it('closing the window hides it to the tray, and the tray opens it again', async () => {
    const [main] = (await app.state()).windows;
    expect(await app.closeWindow(main!.id)).toBe(false);
    const hidden = (await app.state()).windows;
    expect(hidden).toEqual([expect.objectContaining({ id: main!.id, visible: false })]);
    await until(
      async () => trayItem((await app.state()).tray!.menu as MenuItemView[], /^Open Plugboard$/),
      'Open Plugboard in the tray',
    );
    await app.clickTray('window');
    await eventually(async () => (await app.state()).windows[0]?.visible).toBe(true);
  });

  it('notifies when a controller goes offline', async () => {
    const added = await page.evaluate(
      ([url, password]) =>
        window.plugboard.controllers.add({
          name: 'Bench B',
          url: url!,
          auth: { kind: 'digest', user: 'admin', password: password! },
        }),
      [benchB.url, PASSWORD],
    );
    expect(added.ok).toBe(true);
    await tab(page, 'Bench B', 'online').waitFor({ timeout: APP_TIMEOUT });
    await benchB.close();
    const notice = await until(
      async () => (await app.state()).notifications.find((n) => n.title === 'Bench B is offline'),
      'the offline notification',
    );
    expect(notice.body).not.toBe('');
  });

  it('Quit from the tray disposes the Core: no request reaches a controller afterwards', async () => {
    const before = benchA.device.stats.requests;
    await eventually(() => benchA.device.stats.requests).toBeGreaterThan(before);
    // Counted once the test has read everything that reached it along with `quit`: the app disposed its
    // Core before emitting `quit`, so whatever that Core sent before has arrived and been counted by then.
    const counted = new Promise<number>((done) =>
      app.onQuit(() => setImmediate(() => done(benchA.device.stats.requests))),
    );
    await app.clickTray('quit');
    await app.quitted;
    const atQuit = await counted;
    // The stand-in holds the process after quit. An undisposed Core would go on polling (every 500 ms)
    // while the app's own event loop runs a timer of three poll intervals.
    await app.afterAppTimer(1_500);
    await app.release();
    expect(await exitOf(app)).toBe(0);
    // The process has ended, so everything it ever sent has reached this one: read it, then count.
    await new Promise((done) => setImmediate(done));
    expect(benchA.device.stats.requests).toBe(atQuit);
    expect(benchA.device.stats.inFlight).toBe(0);
    // Nothing went wrong in the page but the inline script the CSP test added on purpose.
    expect(pageErrors.filter((text) => !text.includes('inline script'))).toEqual([]);
    expect(pageErrors.some((text) => text.includes('inline script'))).toBe(true);
  });

  it('a second run shows the saved controller, its password read from the keychain', async () => {
    const saved = await readFile(join(configDir, 'config.json'), 'utf8');
    expect(saved).toContain('Bench A');
    expect(saved).not.toContain(PASSWORD);
    const requestsBefore = benchA.device.stats.requests;
    await start();
    await tab(page, 'Bench A', 'online').waitFor({ timeout: APP_TIMEOUT });
    expect(benchA.device.stats.requests).toBeGreaterThan(requestsBefore);
    expect((await app.state()).preloadErrors).toEqual([]);
    await app.clickTray('quit');
    await app.quitted;
    await app.release();
    expect(await exitOf(app)).toBe(0);
  });
});
