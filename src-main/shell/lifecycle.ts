import { BrowserWindow, app, ipcMain, session } from 'electron';
import type { Logger } from '../core/dispatch';
import { createCore, type Core } from '../core/index';
import { resolveAppPage } from './app-page';
import { forwardEvents } from './events';
import { bindIpc } from './ipc-binding';
import { secureSession } from './session-security';
import { openElectronStore } from './store';
import { createMainWindow, guardWebContents } from './window';

export interface ElectronShellOptions {
  /** Directory of the built main bundle (out/main): the preload and renderer are found beside it. */
  mainDir: string;
  log?: Logger;
}

const defaultLog: Logger = (message, error) =>
  error === undefined
    ? console.warn(`[plugboard] ${message}`)
    : console.error(`[plugboard] ${message}`, error);

/**
 * The app's lifecycle: one instance, one window, the Core behind the ipcMain binding, events forwarded
 * to the window. Kept thin on purpose — everything it wires is tested on its own.
 */
export function startElectronShell(options: ElectronShellOptions): void {
  const log = options.log ?? defaultLog;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Every renderer sandboxed, whatever a window's own options say.
  app.enableSandbox();

  const devUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const page = resolveAppPage(options.mainDir, devUrl);
  let core: Core | undefined;
  let window: BrowserWindow | undefined;

  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, page, log));
  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) window = createMainWindow(page);
  });
  let disposed = false;
  app.on('will-quit', (event) => {
    if (!core || disposed) return;
    // Let the Core stop its pollers and close what it holds, then quit for real.
    event.preventDefault();
    disposed = true;
    void core
      .dispose()
      .catch((error: unknown) => log('The Core did not shut down cleanly', error))
      .finally(() => app.quit());
  });

  void app.whenReady().then(() => {
    secureSession(session.defaultSession, { page, log, ...(devUrl ? { devServerUrl: devUrl } : {}) });
    core = createCore({ shell: 'electron', version: app.getVersion(), store: openElectronStore() });
    bindIpc(ipcMain, { handlers: core.handlers, isAppUrl: page.isAppUrl, log });
    forwardEvents(core, () => BrowserWindow.getAllWindows(), page.isAppUrl);
    window = createMainWindow(page);
  });
}
