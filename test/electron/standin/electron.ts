/**
 * The Electron stand-in: the modules `import … from 'electron'` resolves to in the app under test, and
 * the control connection through which the test reads what the app did (windows, tray menu,
 * notifications) and acts as the person would (click a tray item, close the window). It decides
 * nothing for the app: every decision stays in the app's own main code.
 *
 * The control connection is a Unix socket the test listens on (PLUGBOARD_STANDIN_CONTROL), one JSON
 * object per line: requests { id, op, ... } answered { id, ok, value | error }, and pushes { event }.
 */
import { createConnection, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { StandInApp } from './app';
import { StandInBrowserWindow, setWindowHost } from './browser-window';
import { launchChromium, type RunningChromium } from './chromium';
import { StandInIpcMain } from './ipc-main';
import {
  answerDialog,
  dialog,
  dialogs,
  StandInMenu,
  StandInNotification,
  StandInTray,
  nativeImage,
  nativeTheme,
  notifications,
  openedExternally,
  session,
  sessionRecord,
  shell,
  trays,
} from './recorders';

export interface StandInState {
  events: string[];
  sandboxEnabled: boolean;
  singleInstanceLock: boolean;
  cdpEndpoint: string | null;
  windows: { id: number; url: string; visible: boolean; webPreferences: unknown }[];
  tray: { tooltip: string; image: string; imageExists: boolean; menu: unknown[] } | null;
  notifications: { title: string; body: string }[];
  openedExternally: string[];
  preloadErrors: string[];
  cspHeader: boolean;
  dialogs: { title: string; message: string; buttons: string[]; response: number | null }[];
}

export async function createElectron(options: { appDir: string }) {
  const ipcMain = new StandInIpcMain();
  const preloadErrors: string[] = [];
  let chromium: Promise<RunningChromium> | null = null;
  let endpoint: string | null = null;
  let control: Socket | null = null;

  // After `quit` Electron ends the process. The stand-in first closes Chromium, then holds the process
  // until the test says `release` — a window in which anything the app failed to stop (a poller of an
  // undisposed Core) would still reach the emulators — and then lets Node end by itself.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const app = new StandInApp(options.appDir, async () => {
    push({ event: 'quit' });
    if (chromium) await (await chromium).close();
    if (control) await released;
    control?.end();
  });
  setWindowHost({
    chromium: () =>
      (chromium ??= launchChromium().then((running) => {
        endpoint = running.endpoint;
        return running;
      })),
    ipcMain,
    emitApp: (name, ...args) => app.emit(name, ...args),
    allWindowsClosed: () => app.allWindowsClosed(),
    quitting: () => app.quitting(),
    preloadError: (message) => preloadErrors.push(message),
  });

  const state = (): StandInState => {
    const tray = trays.findLast((t) => !t.destroyed);
    return {
      ...app.record,
      cdpEndpoint: endpoint,
      windows: StandInBrowserWindow.getAllWindows().map((w) => ({
        id: w.id,
        url: w.webContents.getURL(),
        visible: w.isVisible(),
        webPreferences: w.options.webPreferences,
      })),
      tray: tray
        ? {
            tooltip: tray.tooltip,
            image: tray.image.path,
            imageExists: !tray.image.isEmpty(),
            menu: tray.menu?.view() ?? [],
          }
        : null,
      notifications: [...notifications],
      openedExternally: [...openedExternally],
      preloadErrors: [...preloadErrors],
      cspHeader: sessionRecord.onHeadersReceived !== null,
      dialogs: dialogs.map((d) => ({ ...d })),
    };
  };

  const window = (id: unknown) => {
    const found = StandInBrowserWindow.getAllWindows().find((w) => w.id === id);
    if (!found) throw new Error(`No window ${String(id)}`);
    return found;
  };
  const ops: Record<string, (request: Record<string, unknown>) => unknown> = {
    state,
    clickTray: ({ item }) => {
      const tray = trays.findLast((t) => !t.destroyed);
      if (!tray?.menu) throw new Error('There is no tray menu');
      tray.menu.click(String(item));
    },
    closeWindow: ({ window: id }) => window(id).close(),
    /** Another page in a window with the same webPreferences as window `like` (the app's preload). */
    openWindow: async ({ url, like }) => {
      const opened = new StandInBrowserWindow({
        show: true,
        webPreferences: window(like).options.webPreferences ?? {},
      });
      await opened.loadURL(String(url));
      return opened.id;
    },
    quit: () => app.quit(),
    answerDialog: ({ response }) => answerDialog(Number(response)),
    // After the answer is written: the connection ends once released.
    release: () => void setImmediate(release),
    // Answered from a timer of the app's own event loop: every timer the app had due sooner has fired.
    afterTimer: ({ ms }) => new Promise<void>((done) => setTimeout(done, Number(ms))),
  };

  function push(message: object): void {
    if (control?.writable) control.write(`${JSON.stringify(message)}\n`);
  }

  // A test that stops the app early: close Chromium and remove its profile before going.
  process.once('SIGTERM', () => {
    void (chromium ? chromium.then((running) => running.close()) : Promise.resolve()).finally(() =>
      process.exit(143),
    );
  });

  const socketPath = process.env['PLUGBOARD_STANDIN_CONTROL'];
  if (socketPath) {
    control = createConnection(socketPath);
    createInterface({ input: control }).on('line', (line) => {
      const request = JSON.parse(line) as { id: number; op: string } & Record<string, unknown>;
      const op = ops[request.op];
      void Promise.resolve()
        .then(() => {
          if (!op) throw new Error(`Unknown stand-in operation ${request.op}`);
          return op(request);
        })
        .then(
          (value) => push({ id: request.id, ok: true, value: value ?? null }),
          (error: unknown) => push({ id: request.id, ok: false, error: String(error) }),
        );
    });
    control.on('error', (error) => console.error('The stand-in lost its control connection:', error));
  }

  const modules = {
    app,
    BrowserWindow: StandInBrowserWindow,
    dialog,
    ipcMain,
    Menu: StandInMenu,
    Notification: StandInNotification,
    Tray: StandInTray,
    nativeImage,
    nativeTheme,
    session,
    shell,
  };
  return { modules, start: () => app.start() };
}
