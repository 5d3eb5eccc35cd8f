/**
 * A bench for browser tests: software controllers (the emulator) on 127.0.0.1, the real Core on a
 * MemoryStore with passwords in a MemorySecretStore, the web shell serving the built renderer, and
 * Chromium on its window. Each test file starts its own lab and closes it in afterAll.
 */
import { createCore, type Core, type LabRecords, MemoryStore } from '../../src-main/core/index';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator/index';
import { MemorySecretStore } from '../../src-main/secrets';
import type { ControllerSummary } from '../../src-preload/contract';
import { launchBrowser, packageVersion, startWebApp, type BrowserSession, type WebApp } from './harness';
import { openApp } from './ui';

/** Small delays: a cycle's off-time long enough to watch a countdown, everything else quick. */
export const QUICK_EMULATOR: EmulatorOptions = {
  cycleDelay: 1,
  sequenceDelay: 0.05,
  rebootSeconds: 2,
  latency: 0,
};

export interface Lab {
  core: Core;
  app: WebApp;
  /** What the Core logged (warnings and errors), for failure messages. */
  log: string[];
  /** Start another emulator, closed with the lab. */
  emulator(options?: EmulatorOptions): Promise<RunningEmulator>;
  /** Save a controller through the Core (setup for tests that are not about adding one). */
  add(emulator: RunningEmulator, name: string, user?: string, password?: string): Promise<ControllerSummary>;
  /**
   * Chromium showing the lab's window; closed with the lab, before everything else. With `pageClock`
   * the page's time is Playwright's clock (flowing as usual until a test pauses it: ui.ts).
   */
  openWindow(options?: { pageClock?: boolean }): Promise<BrowserSession>;
  close(): Promise<void>;
}

/** Requests that changed something on the controller: not reads, not digest challenges. */
export function writes(emulator: RunningEmulator) {
  return emulator.device.stats.log.filter((entry) => entry.method !== 'GET' && entry.status !== 401);
}

/** The Core polls each controller every `pollIntervalMs` (the setting; 500 ms is its minimum). */
/** `records`: a lab store for the Core (accounts and sessions live there), closed with it. */
export async function startLab(
  options: { pollIntervalMs?: number; records?: LabRecords } = {},
): Promise<Lab> {
  const log: string[] = [];
  const core = createCore({
    shell: 'web',
    version: packageVersion,
    store: new MemoryStore(),
    secrets: new MemorySecretStore(),
    dataDir: null,
    ...(options.records ? { records: options.records } : {}),
    log: (message, error) => log.push(error === undefined ? message : `${message}: ${String(error)}`),
  });
  const emulators: RunningEmulator[] = [];
  const browsers: BrowserSession[] = [];
  let app: WebApp | undefined;
  const close = async () => {
    for (const browser of browsers) await browser.close();
    await app?.close();
    await core.dispose();
    await Promise.all(emulators.map((e) => e.close().catch(() => undefined)));
  };
  try {
    await core.handlers['settings/set']({ pollIntervalMs: options.pollIntervalMs ?? 1000 });
    app = await startWebApp({ core });
  } catch (error) {
    await close();
    throw error;
  }
  const lab: Lab = {
    core,
    app,
    log,
    async emulator(emulatorOptions = {}) {
      const running = await startEmulator({
        ...QUICK_EMULATOR,
        ...emulatorOptions,
        host: '127.0.0.1',
        port: 0,
      });
      emulators.push(running);
      return running;
    },
    add: (emulator, name, user = 'admin', password = '1234') =>
      core.handlers['controllers/add']({ name, url: emulator.url, auth: { kind: 'digest', user, password } }),
    async openWindow(options = {}) {
      const browser = await launchBrowser();
      browsers.push(browser);
      if (options.pageClock) await browser.page.clock.install();
      await openApp(browser.page, lab.app.url);
      return browser;
    },
    close,
  };
  return lab;
}
