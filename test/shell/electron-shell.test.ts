/**
 * The Electron shell against a stand-in `electron` module (the Electron runtime cannot run here).
 * The fakes record what the shell asks of Electron and let the test play Electron's part: fire
 * events, call the registered handlers. Everything behind them — Core, dispatcher, store — is real.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callNames } from '../../src-preload/contract';
import { LOADED } from '../core/loaded';
import { storedActivity } from '../core/stored-activity';

const fake = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  const { pathToFileURL } = await import('node:url');

  class FakeWebContents extends EventEmitter {
    url = '';
    openHandler: ((details: { url: string }) => { action: string }) | undefined;
    sent: [string, unknown][] = [];
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.openHandler = handler;
    }
    getURL() {
      return this.url;
    }
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload]);
    }
  }

  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    whenReady: () => Promise.resolve(),
    requestSingleInstanceLock: () => true,
    // Called once while the shell starts, before any test: a flag, since a mock's calls are cleared per test.
    sandboxEnabled: false,
    enableSandbox() {
      app.sandboxEnabled = true;
    },
    quit: vi.fn(),
    getVersion: () => '7.8.9',
  });

  class FakeBrowserWindow extends EventEmitter {
    static all: FakeBrowserWindow[] = [];
    static getAllWindows() {
      return FakeBrowserWindow.all;
    }
    webContents = new FakeWebContents();
    loaded: { file?: string; url?: string } = {};
    visible = false;
    minimized = false;
    constructor(readonly options: { webPreferences: Record<string, unknown>; icon?: string }) {
      super();
      FakeBrowserWindow.all.push(this);
      // Electron announces every new WebContents on the app.
      app.emit('web-contents-created', {}, this.webContents);
    }
    async loadFile(path: string) {
      this.loaded.file = path;
      this.webContents.url = pathToFileURL(path).href;
    }
    async loadURL(url: string) {
      this.loaded.url = url;
      this.webContents.url = url;
    }
    show() {
      this.visible = true;
      this.minimized = false;
      this.emit('show');
    }
    hide() {
      this.visible = false;
      this.emit('hide');
    }
    minimize() {
      this.minimized = true;
      this.emit('minimize');
    }
    restore() {
      this.minimized = false;
      this.emit('restore');
    }
    focus() {}
    isVisible() {
      return this.visible;
    }
    isMinimized() {
      return this.minimized;
    }
    isDestroyed() {
      return false;
    }
  }

  type MenuTemplate = {
    id?: string;
    label?: string;
    type?: string;
    checked?: boolean;
    enabled?: boolean;
    click?: () => void;
    submenu?: MenuTemplate[];
  }[];
  class FakeTray {
    static all: FakeTray[] = [];
    menus: MenuTemplate[] = [];
    images: string[] = [];
    tooltip = '';
    destroyed = false;
    constructor(image: { path: string }) {
      FakeTray.all.push(this);
      this.images.push(image.path);
    }
    setContextMenu(menu: MenuTemplate) {
      this.menus.push(menu);
    }
    setImage(image: { path: string }) {
      this.images.push(image.path);
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    destroy() {
      this.destroyed = true;
    }
  }

  class FakeNotification {
    static shown: { title: string; body: string; icon?: string }[] = [];
    static isSupported() {
      return true;
    }
    constructor(readonly options: { title: string; body: string; icon?: string }) {}
    show() {
      FakeNotification.shown.push(this.options);
    }
  }

  type Listener = (...args: never[]) => unknown;
  const session = {
    headersListener: undefined as Listener | undefined,
    requestHandler: undefined as Listener | undefined,
    checkHandler: undefined as Listener | undefined,
    webRequest: { onHeadersReceived: (listener: Listener) => void (session.headersListener = listener) },
    setPermissionRequestHandler: (handler: Listener) => void (session.requestHandler = handler),
    setPermissionCheckHandler: (handler: Listener) => void (session.checkHandler = handler),
  };

  return {
    app,
    BrowserWindow: FakeBrowserWindow,
    Tray: FakeTray,
    Notification: FakeNotification,
    theme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
    handlers: new Map<string, (event: unknown, input: unknown) => Promise<unknown>>(),
    session,
    opened: [] as string[],
  };
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.BrowserWindow,
  Tray: fake.Tray,
  Notification: fake.Notification,
  Menu: { buildFromTemplate: (template: unknown) => template },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  nativeTheme: fake.theme,
  ipcMain: {
    handle: (name: string, listener: (event: unknown, input: unknown) => Promise<unknown>) =>
      fake.handlers.set(name, listener),
    removeHandler: (name: string) => fake.handlers.delete(name),
  },
  session: { defaultSession: fake.session },
  shell: { openExternal: async (url: string) => void fake.opened.push(url) },
}));

// electron-store is a thin subclass of conf that reads Electron's userData; the real conf stands in.
vi.mock('electron-store', async () => {
  const { default: Conf } = await import('conf');
  return {
    default: class extends Conf {
      constructor({ name, ...options }: { name: string; cwd: string }) {
        super({ ...options, configName: name });
      }
    },
  };
});

const mainDir = resolve('out', 'main');
const indexUrl = pathToFileURL(resolve('out', 'renderer', 'index.html')).href;
let configDir: string;
const logged: string[] = [];

/** An Electron-style event whose preventDefault can be observed. */
function event<T extends object>(props: T) {
  return Object.assign(
    {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    },
    props,
  );
}

function window() {
  expect(fake.BrowserWindow.all).toHaveLength(1);
  return fake.BrowserWindow.all[0]!;
}

/**
 * A controller saved earlier whose password is not in the (absent) keychain: nothing is sent to it. Saved
 * by a Plugboard before MQTT topics: it reads as one without (`seeded`).
 */
const seededFile = {
  id: 'c-seeded',
  name: 'Seeded',
  url: 'http://127.0.0.1:9',
  auth: 'digest',
  user: 'admin',
  hasSecret: false,
  fingerprint: null,
  colour: '#3b82f6',
  order: 0,
  demo: false,
};
const seeded = { ...seededFile, mqttTopic: null };

beforeAll(async () => {
  configDir = await mkdtemp(join(tmpdir(), 'plugboard-shell-'));
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ controllers: [seededFile] }));
  vi.stubEnv('PLUGBOARD_CONFIG_DIR', configDir);
  // No Secret Service here: keytar fails fast and clearly instead of trying to start a bus.
  vi.stubEnv('DBUS_SESSION_BUS_ADDRESS', `unix:path=${join(configDir, 'no-such-bus')}`);
  vi.stubEnv('ELECTRON_RENDERER_URL', '');
  const { startElectronShell } = await import('../../src-main/shell/lifecycle');
  startElectronShell({ mainDir, log: (message) => logged.push(message) });
  await vi.waitFor(() => expect(fake.BrowserWindow.all).toHaveLength(1), LOADED);
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(configDir, { recursive: true, force: true });
});

describe('the window', () => {
  it('is isolated, sandboxed and without Node or <webview>, with the built preload', () => {
    expect(window().options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      preload: resolve('out', 'preload', 'index.cjs'),
    });
    expect(fake.app.sandboxEnabled).toBe(true);
  });

  it('loads the built renderer', () => {
    expect(window().loaded).toEqual({ file: resolve('out', 'renderer', 'index.html') });
  });
});

describe('the ipcMain binding', () => {
  it('has a handler for every contract call and nothing else', () => {
    expect([...fake.handlers.keys()].sort()).toEqual([...callNames].sort());
  });

  it('answers the app page from the real Core and keeps its store in the config folder', async () => {
    const appPage = { senderFrame: { url: indexUrl, parent: null } };
    expect(await fake.handlers.get('app/info')!(appPage, {})).toEqual({
      ok: true,
      value: {
        name: 'Plugboard',
        version: '7.8.9',
        shell: 'electron',
        platform: process.platform,
        // The desktop app's store is the keychain (its failures are reported where a secret is kept).
        secrets: 'keychain',
      },
    });
    expect(
      await fake.handlers.get('outlets/set')!(appPage, { controllerId: 'c1', outlets: 'some', on: true }),
    ).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT' },
    });
    expect(await fake.handlers.get('controllers/list')!(appPage, {})).toEqual({ ok: true, value: [seeded] });
    const { openElectronStore } = await import('../../src-main/shell/store');
    openElectronStore().set('probe', 1);
    expect(existsSync(join(configDir, 'config.json'))).toBe(true);
  });

  it('drops messages from other pages and from subframes', async () => {
    await expect(
      fake.handlers.get('app/info')!({ senderFrame: { url: 'https://evil.example/', parent: null } }, {}),
    ).rejects.toThrow(/not the app's own page/);
    await expect(
      fake.handlers.get('app/info')!({ senderFrame: { url: indexUrl, parent: {} } }, {}),
    ).rejects.toThrow(/subframe/);
  });
});

describe('navigation, new windows and links', () => {
  it('denies navigation away from the app page but allows reloading it', () => {
    const contents = window().webContents;
    const away = event({ url: 'https://evil.example/' });
    contents.emit('will-navigate', away);
    expect(away.defaultPrevented).toBe(true);
    const local = event({ url: 'file:///etc/passwd' });
    contents.emit('will-navigate', local);
    expect(local.defaultPrevented).toBe(true);
    const reload = event({ url: indexUrl });
    contents.emit('will-navigate', reload);
    expect(reload.defaultPrevented).toBe(false);
    expect(logged).toContain('Blocked navigation of the window to https://evil.example/.');
  });

  it('denies subframe navigation and <webview>', () => {
    const contents = window().webContents;
    const frame = event({ url: indexUrl, isMainFrame: false });
    contents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);
    const webview = event({});
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
  });

  it('denies every window.open and hands only http(s) links to the system browser', async () => {
    const open = window().webContents.openHandler!;
    const urls = [
      'https://www.digital-loggers.com/rest.html',
      'http://192.168.0.100/',
      'file:///usr/bin/xterm',
      'javascript:alert(1)',
      'smb://server/share',
      'ms-settings:privacy',
      'https://user:pass@example.com/',
      'not a url',
    ];
    for (const url of urls) expect(open({ url })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(fake.opened).toHaveLength(2), LOADED);
    expect(fake.opened).toEqual(['https://www.digital-loggers.com/rest.html', 'http://192.168.0.100/']);
  });
});

describe('the session', () => {
  it('adds the strict CSP to every response, replacing any other', () => {
    let answer: { responseHeaders: Record<string, string[]> } | undefined;
    fake.session.headersListener!(
      {
        url: indexUrl,
        responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] },
      } as never,
      ((response: typeof answer) => (answer = response)) as never,
    );
    expect(answer!.responseHeaders['X-Other']).toEqual(['1']);
    expect(answer!.responseHeaders['content-security-policy']).toBeUndefined();
    const [policy] = answer!.responseHeaders['Content-Security-Policy']!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).not.toMatch(/unsafe-(eval|inline)/);
  });

  it('refuses permission requests, except clipboard writing by the app page', () => {
    const decide = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      fake.session.requestHandler!(
        { getURL: () => requestingUrl } as never,
        permission as never,
        ((ok: boolean) => (granted = ok)) as never,
        { requestingUrl } as never,
      );
      return granted;
    };
    for (const permission of ['media', 'geolocation', 'notifications', 'hid', 'serial', 'openExternal'])
      expect(decide(permission, indexUrl)).toBe(false);
    expect(decide('clipboard-sanitized-write', indexUrl)).toBe(true);
    expect(decide('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(
      fake.session.checkHandler!(
        null as never,
        'media' as never,
        'file://' as never,
        { requestingUrl: indexUrl } as never,
      ),
    ).toBe(false);
  });
});

describe('app lifecycle', () => {
  it('keeps running in the tray when the window is closed, and closes it for real when quitting', () => {
    const win = window();
    win.show();
    const closing = event({});
    win.emit('close', closing);
    expect(closing.defaultPrevented).toBe(true);
    expect(win.isVisible()).toBe(false);
    fake.app.emit('before-quit');
    const quitting = event({});
    win.emit('close', quitting);
    expect(quitting.defaultPrevented).toBe(false);
  });

  it('quits when the last window closes (except on macOS)', () => {
    fake.app.emit('window-all-closed');
    expect(fake.app.quit).toHaveBeenCalledTimes(process.platform === 'darwin' ? 0 : 1);
  });
});

const appPage = { senderFrame: { url: indexUrl, parent: null } };
const call = async <T>(name: string, input: unknown): Promise<T> => {
  const result = (await fake.handlers.get(name)!(appPage, input)) as {
    ok: boolean;
    value?: T;
    error?: unknown;
  };
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
  return result.value as T;
};
type Item = {
  id?: string;
  label?: string;
  type?: string;
  checked?: boolean;
  enabled?: boolean;
  click?: () => void;
  submenu?: Item[];
};
const tray = () => fake.Tray.all[0]!;
const latestMenu = () => tray().menus.at(-1) as Item[];
const find = (items: Item[], id: string): Item | undefined => {
  for (const item of items) {
    if (item.id === id) return item;
    const inner = item.submenu && find(item.submenu, id);
    if (inner) return inner;
  }
  return undefined;
};

describe('the Core behind the shell', () => {
  it('keeps passwords in the OS keychain: without one, an added controller is saved and its password kept for this session only', async () => {
    const { startEmulator } = await import('../../src-main/emulator');
    const emu = await startEmulator();
    try {
      const added = await call<{ id: string }>('controllers/add', {
        url: emu.url,
        auth: { kind: 'digest', user: 'admin', password: '1234' },
      });
      expect(await call('controllers/secretWhere', { controllerId: added.id })).toEqual({ where: 'session' });
      expect(await call('controllers/list', {})).toEqual([seeded, expect.objectContaining({ id: added.id })]);
      await call('controllers/remove', { id: added.id });
      expect(await call('controllers/list', {})).toEqual([seeded]);
    } finally {
      await emu.close();
    }
  });

  it('shows a saved controller whose password is missing as needing one', async () => {
    await vi.waitFor(async () => {
      const snapshot = await call<{
        states: { id: string; status: string; problem: { message: string } | null }[];
      }>('app/snapshot', {});
      expect(snapshot.states[0]).toMatchObject({
        id: 'c-seeded',
        status: 'password_needed',
        problem: { message: expect.stringMatching(/keychain/) },
      });
    }, LOADED);
  });
});

describe('the tray', () => {
  it('shows the overall state icon and a menu built from the Core', async () => {
    expect(fake.Tray.all).toHaveLength(1);
    expect(tray().images[0]).toBe(resolve('resources', 'tray', 'tray-light-off.png'));
    await vi.waitFor(() => expect(tray().menus.length).toBeGreaterThan(0), LOADED);
    const labels = latestMenu().map((item) => item.label);
    expect(labels).toEqual(expect.arrayContaining(['Seeded', 'Quit']));
    expect(labels.some((label) => label === 'Open Plugboard' || label === 'Hide Plugboard')).toBe(true);
  });

  it('switches outlets of the demo from the menu, and says so in the activity log', async () => {
    const demo = await call<{ id: string; name: string }[]>('demo/start', {});
    await call('settings/set', { pollIntervalMs: 500 });
    const lab = demo[2]!;
    const item = await vi.waitFor(
      () => {
        const found = find(latestMenu(), `ctl:${lab.id}:1`);
        if (!found?.click) throw new Error('not in the menu yet');
        return found;
      },
      { timeout: 15_000 },
    );
    expect(item.checked).toBe(true);
    item.click!();
    await vi.waitFor(
      () => expect(find(latestMenu(), `ctl:${lab.id}:1`)).toMatchObject({ checked: false, enabled: true }),
      { timeout: 10_000 },
    );
    const activity = await call<{ source: string; outlet: number | null; controllerId: string }[]>(
      'activity/list',
      {},
    );
    expect(activity.find((e) => e.controllerId === lab.id && e.outlet === 1)).toMatchObject({
      source: 'tray',
    });
    // The seeded controller still needs its password: the icon asks for attention.
    expect(tray().images.at(-1)).toBe(resolve('resources', 'tray', 'tray-light-offline.png'));
  });

  it('asks the window to confirm before a critical outlet goes off', async () => {
    const snapshot = await call<{ controllers: { id: string; name: string }[] }>('app/snapshot', {});
    const bench = snapshot.controllers.find((c) => c.name.startsWith('Demo bench'))!;
    const router = find(latestMenu(), `ctl:${bench.id}:1`)!;
    expect(router).toMatchObject({ checked: true, label: expect.stringContaining('Router') });
    fake.BrowserWindow.all[0]!.hide();
    router.click!();
    expect(fake.BrowserWindow.all[0]!.visible).toBe(true);
    const confirm = fake.BrowserWindow.all[0]!.webContents.sent.find(([channel]) => channel === 'ui/confirm');
    expect(confirm?.[1]).toMatchObject({ controllerId: bench.id, outlets: [1], action: 'off' });
    const state = await call<{ states: { id: string; outlets: { physicalState: boolean }[] }[] }>(
      'app/snapshot',
      {},
    );
    expect(state.states.find((s) => s.id === bench.id)!.outlets[0]!.physicalState).toBe(true);
  });

  it('follows the desktop theme', async () => {
    fake.theme.shouldUseDarkColors = true;
    fake.theme.emit('updated');
    await vi.waitFor(
      () => expect(tray().images.at(-1)).toMatch(/tray-dark-(mixed|on|off|offline)\.png$/),
      LOADED,
    );
  });

  it('delivers the Core’s notifications as native ones', async () => {
    const snapshot = await call<{ controllers: { id: string; name: string }[] }>('app/snapshot', {});
    const bench = snapshot.controllers.find((c) => c.name.startsWith('Demo bench'))!;
    await call('settings/set', {
      meterThresholds: [{ controllerId: bench.id, key: 'buses.0.voltage', min: null, max: 1 }],
    });
    await vi.waitFor(
      () =>
        expect(fake.Notification.shown).toContainEqual({
          title: `${bench.name}: AC voltage out of range`,
          body: expect.stringMatching(/above the maximum of 1 V/),
          icon: resolve('resources', 'icon.png'),
        }),
      { timeout: 10_000 },
    );
    // A meter outside its limits keeps the tray's attention icon: the next test looks at the icon.
    await call('settings/set', { meterThresholds: [] });
  });

  it('keeps the activity log in the lab store in the config folder', async () => {
    await call('controllers/remove', { id: 'c-seeded' });
    await vi.waitFor(() => {
      expect(storedActivity(configDir).map((entry) => entry.action)).toContain('removed from Plugboard');
    }, LOADED);
    // Only the demo is left, some outlets on and some off (dark theme since the test before).
    await vi.waitFor(
      () => expect(tray().images.at(-1)).toBe(resolve('resources', 'tray', 'tray-dark-mixed.png')),
      LOADED,
    );
  });

  it('quits from the menu', () => {
    fake.app.quit.mockClear();
    find(latestMenu(), 'quit')!.click!();
    expect(fake.app.quit).toHaveBeenCalledTimes(1);
  });
});

describe('quitting', () => {
  it('holds the quit until the Core is disposed, then quits once', async () => {
    fake.app.quit.mockClear();
    const first = event({});
    fake.app.emit('will-quit', first);
    expect(first.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalledTimes(1), LOADED);
    const second = event({});
    fake.app.emit('will-quit', second);
    expect(second.defaultPrevented).toBe(false);
    expect(tray().destroyed).toBe(true);
  });
});
