/**
 * The built desktop app under the Electron stand-in while a service runs for its config folder: it
 * keeps no Core of its own, shows the service's controllers and switches through the service's Core,
 * recorded as this OS user at the window and the tray. The service here is the real Core behind the
 * real Core socket (what `plugboard serve` runs), in the test's process.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuItemView } from './standin/recorders';
import { coreSocketPath, findRunningCore } from '../../src-main/link';
import { listenCoreSocket, type CoreSocket } from '../../src-main/serve/core-socket';
import { addController, cleanUp, emulator, newCore, type CoreHarness } from '../core/harness';
import {
  APP_TIMEOUT,
  type DesktopApp,
  eventually,
  exitOf,
  repoRoot,
  startDesktopApp,
  trayItem,
  until,
} from './desktop-app';
import type { RunningEmulator } from '../../src-main/emulator';

describe('The desktop app while a Plugboard service runs', () => {
  let home: string;
  let configDir: string;
  let bench: RunningEmulator;
  let service: CoreHarness;
  let socket: CoreSocket;
  let app: DesktopApp;
  let page: Page;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'plugboard-desktop-service-'));
    configDir = join(home, 'plugboard-config');
    bench = await emulator();
    bench.device.setOutlet(0, { name: 'Router' });
    bench.device.setOutlet(1, { name: 'Lamp', state: true });
    service = newCore();
    await addController(service, bench, { name: 'Service Bench' });
    const { mkdir } = await import('node:fs/promises');
    await mkdir(configDir, { recursive: true });
    socket = await listenCoreSocket(service.core, coreSocketPath(configDir), () => undefined);
    app = await startDesktopApp({ home, configDir });
    page = await app.page();
  });

  afterAll(async () => {
    await app?.close();
    await socket?.close(1_000);
    await cleanUp();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("shows the service's controllers (its own config folder holds none) and switches through the service", async () => {
    const tab = page
      .getByRole('tablist', { name: 'Controllers' })
      .getByRole('tab', { name: /^Service Bench online/ });
    await tab.waitFor({ timeout: APP_TIMEOUT });
    await tab.click();
    await page
      .getByRole('tablist', { name: 'Sections of Service Bench' })
      .getByRole('tab', { name: 'Outlets', exact: true })
      .click();
    await page.getByRole('switch', { name: 'Power of outlet 1 (Router)' }).click();
    await eventually(() => bench.device.outlet(0).physicalState).toBe(false);
    await eventually(
      () => service.activity().find((e) => e.outlet === 1 && e.result === 'ok') ?? null,
    ).toMatchObject({ source: 'window', who: userInfo().username });
  });

  it('switches from the tray through the service, as the tray', async () => {
    const item = await until(async () => {
      const menu = ((await app.state()).tray?.menu ?? []) as MenuItemView[];
      const lamp = trayItem(menu, /Lamp/);
      return lamp?.enabled && lamp.checked ? lamp : null;
    }, 'an enabled, checked tray item for the Lamp outlet');
    await app.clickTray(item.id!);
    await eventually(() => bench.device.outlet(1).physicalState).toBe(false);
    await eventually(
      () => service.activity().find((e) => e.outlet === 2 && e.result === 'ok') ?? null,
    ).toMatchObject({ source: 'tray', who: userInfo().username });
  });

  it('quits without stopping the service', async () => {
    await app.clickTray('quit');
    await app.quitted;
    await app.release();
    expect(await exitOf(app)).toBe(0);
    // The service still answers others: the app closed only its own link.
    const again = await findRunningCore(configDir);
    expect(again).not.toBeNull();
    expect(await again!.handlersAs({ door: 'cli', who: 'test' })['controllers/list']({})).toHaveLength(1);
    await again!.close();
  });
});

describe('The desktop app running its own Core', () => {
  let home: string;
  let app: DesktopApp;

  afterAll(async () => {
    await app?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('holds the Core lock and serves its socket while it runs, so a service for the same folder is refused; quitting lets go', async () => {
    home = await mkdtemp(join(tmpdir(), 'plugboard-desktop-owner-'));
    const configDir = join(home, 'plugboard-config');
    app = await startDesktopApp({ home, configDir });
    const page = await app.page();
    await page.getByRole('heading', { name: 'No controllers yet' }).waitFor({ timeout: APP_TIMEOUT });

    // It serves its Core's socket, so the CLI and the web shell use this Core instead of their own.
    const link = await findRunningCore(configDir);
    expect(link).not.toBeNull();
    const info = await link!.handlersAs({ door: 'cli', who: 'tester' })['app/info']({});
    expect(info.shell).toBe('electron');
    await link!.close();

    const serve = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src-main/bin/plugboard.ts',
        'serve',
        '--listen',
        'api=127.0.0.1:0',
        '--config-dir',
        configDir,
      ],
      { cwd: repoRoot, env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' } },
    );
    let stderr = '';
    serve.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => serve.once('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('Another Plugboard already runs the Core');

    await app.clickTray('quit');
    await app.quitted;
    await app.release();
    expect(await exitOf(app)).toBe(0);
    expect(existsSync(join(configDir, 'core.lock'))).toBe(false);
    expect(existsSync(coreSocketPath(configDir))).toBe(false);
  });
});
