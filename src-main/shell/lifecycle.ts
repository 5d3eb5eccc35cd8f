import { join } from 'node:path';
import {
  BrowserWindow,
  Menu,
  Notification,
  Tray,
  app,
  dialog,
  ipcMain,
  nativeImage,
  nativeTheme,
  session,
} from 'electron';
import { plugboardConfigDir } from '../core/config';
import { consoleLogger, type Logger } from '../shared/logging';
import { createCore, openConfigStore, openLabRecords, osUserName } from '../core/index';
import { attachOrLock, coreSocketPath, type CoreLock } from '../link';
import { signInWithProvider } from '../link/provider-sign-in';
import { errorSentence, isPlugboardError } from '../shared/errors';
import { listenCoreSocket, type CoreSocket } from '../serve/core-socket';
import { createDesk, type Desk } from '../desk';
import { KeytarSecretStore } from '../secrets';
import { resolveAppPage } from './app-page';
import { syncStartAtLogin } from './autostart';
import { forwardEvents } from './events';
import { openExternalSafely } from './external-links';
import { bindIpc } from './ipc-binding';
import { coreOverLink, type ShellCore } from './linked-core';
import { electronNotifier } from './notifications';
import { secureSession } from './session-security';
import { openElectronStore } from './store';
import { PlugboardTray } from './tray';
import { watchVisibility } from './visibility';
import { mayQuit, watchRunningSequences } from './sequence-quit';
import { createMainWindow, guardWebContents } from './window';

/** How long links through the Core's socket (the CLI, a web shell) get to finish their calls at quit. */
const SOCKET_GRACE_MS = 5_000;

export interface ElectronShellOptions {
  /** Directory of the built main bundle (out/main): the preload and renderer are found beside it. */
  mainDir: string;
  /** Icons (default: `resources/` of the app, two levels above out/main). */
  resourcesDir?: string;
  log?: Logger;
}

/**
 * The app's lifecycle: one instance, one window, the Core behind the ipcMain binding (with the OS
 * keychain, the shared settings file, the activity log in the config folder and native notifications),
 * events forwarded to the window, the tray. Kept thin on purpose — everything it wires is tested on its own.
 */
export function startElectronShell(options: ElectronShellOptions): void {
  const log = options.log ?? consoleLogger();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  // Every renderer sandboxed, whatever a window's own options say.
  app.enableSandbox();

  const devUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const page = resolveAppPage(options.mainDir, devUrl);
  const resources = options.resourcesDir ?? join(options.mainDir, '..', '..', 'resources');
  const appIcon = join(resources, 'icon.png');
  let core: (ShellCore & Pick<Desk, 'labs' | 'lab'>) | undefined;
  let coreLock: CoreLock | null = null;
  let coreSocket: CoreSocket | null = null;
  let window: BrowserWindow | undefined;
  let tray: PlugboardTray | undefined;

  let quitting = false;
  const openWindow = (): BrowserWindow => {
    const created = createMainWindow(page, appIcon);
    watchVisibility(created, (visible) => {
      core?.setVisible(visible);
      tray?.schedule();
    });
    // With a tray icon, closing the window keeps Plugboard in the tray (its quick toggles and
    // notifications go on); without one (some Linux desktops), closing quits as usual.
    created.on('close', (event) => {
      if (!tray || quitting) return;
      event.preventDefault();
      created.hide();
    });
    return created;
  };
  const showWindow = (): void => {
    if (!core) return;
    if (!window || window.isDestroyed()) window = openWindow();
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, page, log));
  app.on('second-instance', showWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) window = openWindow();
  });
  // A running sequence (of this app's own Core) asks first; the answer decides whether quitting goes on.
  let sequencesRunning: () => unknown[] = () => [];
  let quitAsked: 'no' | 'asking' | 'yes' = 'no';
  app.on('before-quit', (event) => {
    if (core && quitAsked !== 'yes' && sequencesRunning().length > 0) {
      event.preventDefault();
      if (quitAsked === 'asking') return;
      quitAsked = 'asking';
      void mayQuit(core.handlers, dialog)
        .catch(() => true)
        .then((go) => {
          quitAsked = go ? 'yes' : 'no';
          if (go) app.quit();
          // Kept running after the last window closed: show it again, with the run's timeline.
          else if (!window || window.isDestroyed()) showWindow();
        });
      return;
    }
    quitting = true;
  });
  let disposed = false;
  app.on('will-quit', (event) => {
    if (!core || disposed) return;
    // Let the Core stop its pollers and close what it holds, then quit for real.
    event.preventDefault();
    disposed = true;
    tray?.dispose();
    void (coreSocket?.close(SOCKET_GRACE_MS) ?? Promise.resolve())
      .then(() => core?.dispose())
      .catch((error: unknown) => log('The Core did not shut down cleanly', error))
      .then(() => coreLock?.release())
      .finally(() => app.quit());
  });

  /**
   * The desk over this computer's Core (its own, or the running Plugboard's): the labs it attaches to,
   * kept in this config folder's config.json, their sessions in the OS keychain.
   */
  const deskOver = (base: ShellCore): ShellCore & Pick<Desk, 'labs' | 'lab'> =>
    createDesk({
      core: base,
      store: openElectronStore(),
      secrets: new KeytarSecretStore(),
      log,
      user: osUserName(),
      // A lab's identity provider: its page in the system browser, the answer on a loopback receiver.
      signInWithProvider: (service, openBrowser) => signInWithProvider(service, openBrowser),
      openBrowser: async (url) => {
        if (!(await openExternalSafely(url, log)))
          throw new Error('the system browser could not be opened for the sign-in page');
      },
    });

  void app.whenReady().then(async () => {
    secureSession(session.defaultSession, { page, log, ...(devUrl ? { devServerUrl: devUrl } : {}) });
    const notify = electronNotifier(Notification, log, appIcon);
    // One Core per config folder: when another Plugboard runs it (`plugboard serve`, the web shell), the
    // window and tray use that Core; otherwise this app takes the Core lock, runs the Core and serves its
    // socket, so the CLI and the web shell use this Core instead of starting their own.
    const slot = await attachOrLock(plugboardConfigDir(), 'electron', (error) => {
      log('The Core lock was lost: another Plugboard took the config folder; restarting', error);
      app.relaunch();
      app.quit();
    }).catch((error: unknown) => {
      log('No Core for the config folder', error);
      dialog.showErrorBox(
        'Plugboard cannot start',
        isPlugboardError(error) ? errorSentence(error) : String((error as Error).message ?? error),
      );
      app.exit(1);
      return null;
    });
    if (!slot) return;
    if (slot.link) {
      const { link } = slot;
      log('Using the Core of the Plugboard that runs for this config folder');
      core = deskOver(coreOverLink(link, osUserName()));
      // That Plugboard stopped under us: start again, which runs our own Core (or finds one back).
      void link.closed.then(() => {
        if (disposed || quitting) return;
        log('The Plugboard that ran the Core stopped: restarting with a Core of our own');
        app.relaunch();
        app.quit();
      });
    } else {
      coreLock = slot.lock;
      // The lab store (the activity log): one a newer Plugboard wrote is refused, untouched.
      const cannotStart = (error: unknown) => {
        log('The lab store could not be opened', error);
        dialog.showErrorBox(
          'Plugboard cannot start',
          isPlugboardError(error) ? errorSentence(error) : String((error as Error).message ?? error),
        );
        app.exit(1);
        return null;
      };
      const records = await openLabRecords(plugboardConfigDir(), app.getVersion(), log, Date.now()).catch(
        cannotStart,
      );
      if (!records) return;
      // config.json (electron-store) with SQLite; pointed at a lab's PostgreSQL, the lab's configuration.
      const store = await openConfigStore({
        store: records.store,
        local: openElectronStore(),
        dir: plugboardConfigDir(),
        log,
        now: Date.now(),
      }).catch(cannotStart);
      if (!store) return;
      const own = createCore({
        shell: 'electron',
        version: app.getVersion(),
        store,
        secrets: new KeytarSecretStore(),
        dataDir: plugboardConfigDir(),
        records,
        notify,
        // Until the window shows: only what the tray needs is polled.
        visible: false,
        log,
      });
      core = deskOver(own);
      const lock = slot.lock;
      coreSocket = await listenCoreSocket(own, coreSocketPath(plugboardConfigDir()), log, {
        holdsLock: () => lock.held,
      }).catch((error: unknown) => {
        log('The Core socket did not open: the CLI and the web shell cannot use this Core', error);
        return null;
      });
      // Only this app's own Core runs sequences a quit stops (a service's go on without the window).
      sequencesRunning = watchRunningSequences(own);
    }
    bindIpc(ipcMain, { handlers: core.handlers, isAppUrl: page.isAppUrl, log });
    forwardEvents(core, () => BrowserWindow.getAllWindows(), page.isAppUrl);
    // Only an installed app registers itself: unpackaged, execPath is a development Electron.
    if (app.isPackaged) syncStartAtLogin(core, { loginItems: app, log });
    window = openWindow();
    try {
      tray = new PlugboardTray({
        electron: { Tray, Menu, nativeImage, nativeTheme },
        core,
        iconDir: join(resources, 'tray'),
        window: {
          show: showWindow,
          hide: () => window?.hide(),
          isVisible: () => !!window && !window.isDestroyed() && window.isVisible(),
        },
        quit: () => app.quit(),
        log,
        notify,
        desk: core,
      });
    } catch (error) {
      // Some desktops have no tray; the window alone still does everything.
      log('No tray icon on this desktop', error);
    }
  });
}
