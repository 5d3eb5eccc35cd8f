import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControllerState } from '../../src-preload/contract';
import { type Core, buildTrayMenu } from '../../src-main/core/index';
import { electronNotifier, type NotificationClass } from '../../src-main/shell/notifications';
import { PlugboardTray, menuTemplate, type TrayElectron } from '../../src-main/shell/tray';
import { watchVisibility } from '../../src-main/shell/visibility';
import { controllerSummary, testCore, type TestCore } from '../web/test-core';
import { LOADED } from '../core/loaded';

/** The tray class with a stand-in Electron Tray and the real Core behind it. */
function fakeElectron() {
  const trays: { menus: unknown[]; images: string[]; tooltip: string }[] = [];
  const theme = Object.assign(new EventEmitter(), { shouldUseDarkColors: false });
  const electron = {
    Tray: class {
      record = { menus: [] as unknown[], images: [] as string[], tooltip: '' };
      constructor(image: { path: string }) {
        trays.push(this.record);
        this.record.images.push(image.path);
      }
      setContextMenu(menu: unknown) {
        this.record.menus.push(menu);
      }
      setImage(image: { path: string }) {
        this.record.images.push(image.path);
      }
      setToolTip(text: string) {
        this.record.tooltip = text;
      }
      destroy() {}
    },
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    nativeTheme: theme,
  } as unknown as TrayElectron;
  return { electron, trays, theme };
}

let core: TestCore | undefined;
afterEach(async () => {
  await core?.dispose();
  core = undefined;
});

describe('PlugboardTray', () => {
  it('rebuilds once for a burst of changes, and not at all when the menu is the same', async () => {
    core = testCore();
    const { electron, trays } = fakeElectron();
    // Every rebuild reads the window's visibility once, right before comparing menus: a count of rebuilds.
    let rebuilds = 0;
    const window = {
      visible: false,
      show: vi.fn(),
      hide: vi.fn(),
      isVisible: () => {
        rebuilds++;
        return window.visible;
      },
    };
    const tray = new PlugboardTray({
      electron,
      core,
      iconDir: '/icons',
      window,
      quit: vi.fn(),
      log: () => undefined,
      coalesceMs: 20,
    });
    await vi.waitFor(() => expect(trays[0]!.menus).toHaveLength(1), LOADED);
    expect(rebuilds).toBe(1);
    expect(trays[0]!.tooltip).toBe('Plugboard: all outlets off');
    const state = { id: 'x' } as ControllerState;
    for (let i = 0; i < 20; i++) core.emit('state/changed', state);
    await vi.waitFor(() => expect(rebuilds).toBe(2), LOADED);
    expect(trays[0]!.menus).toHaveLength(1);
    // A real change: the window is now visible, so the menu offers "Hide".
    window.visible = true;
    const settings = (await core.handlers['settings/get']({}))!;
    for (let i = 0; i < 5; i++) core.emit('settings/changed', settings);
    await vi.waitFor(() => expect(rebuilds).toBe(3), LOADED);
    expect(trays[0]!.menus).toHaveLength(2);
    const labels = (trays[0]!.menus[1] as { label: string }[]).map((item) => item.label);
    expect(labels).toContain('Hide Plugboard');
    tray.dispose();
  });

  it('maps open, hide, confirm and quit to the window, the Core and the app', async () => {
    core = testCore({ controllers: [controllerSummary('c1', 'Bench A', 0)] });
    const confirms: unknown[] = [];
    core.subscribe((name, payload) => name === 'ui/confirm' && confirms.push(payload));
    const { electron } = fakeElectron();
    const window = { show: vi.fn(), hide: vi.fn(), isVisible: () => false };
    const quit = vi.fn();
    const tray = new PlugboardTray({ electron, core, iconDir: '/icons', window, quit, log: () => undefined });
    tray.run({ kind: 'open' });
    tray.run({ kind: 'hide' });
    const request = { controllerId: 'c1', outlets: [1], action: 'off' as const, reason: 'critical' };
    tray.run({ kind: 'confirm', request });
    tray.run({ kind: 'quit' });
    expect(window.show).toHaveBeenCalledTimes(2);
    expect(window.hide).toHaveBeenCalledTimes(1);
    expect(confirms).toEqual([request]);
    expect(quit).toHaveBeenCalledTimes(1);
    tray.dispose();
  });

  it('tells the person when a tray action fails', async () => {
    core = testCore({ controllers: [controllerSummary('c1', 'Bench A', 0)] });
    const { electron } = fakeElectron();
    const notices: { title: string; body: string }[] = [];
    const tray = new PlugboardTray({
      electron,
      core,
      iconDir: '/icons',
      window: { show: vi.fn(), hide: vi.fn(), isVisible: () => false },
      quit: vi.fn(),
      log: () => undefined,
      notify: (notice) => notices.push(notice),
    });
    tray.run({ kind: 'set', controllerId: 'c1', outlet: 1, on: true });
    await vi.waitFor(() => expect(notices).toHaveLength(1), LOADED);
    expect(notices[0]!.body).toMatch(
      /Plugboard needs the password of admin for Bench A.*Nothing was sent to it/,
    );
    tray.dispose();
  });
});

describe('menuTemplate', () => {
  it('turns the menu model into Electron items whose clicks run their actions', () => {
    const run = vi.fn();
    const template = menuTemplate(
      buildTrayMenu({ controllers: [], states: [], groups: [], favourites: [], windowVisible: false }),
      run,
    );
    expect(template.map((item) => [item.type, item.label])).toEqual([
      ['normal', 'No controllers yet'],
      ['separator', undefined],
      ['normal', 'Open Plugboard'],
      ['normal', 'Quit'],
    ]);
    expect(template[0]!.click).toBeUndefined();
    (template[2]!.click as () => void)();
    expect(run).toHaveBeenCalledWith({ kind: 'open' });
  });
});

describe('window visibility', () => {
  it('reports shown and not minimised as visible, closed as hidden', () => {
    const window = Object.assign(new EventEmitter(), { shown: false, min: false });
    const source = {
      on: (event: string, listener: () => void) => window.on(event, listener),
      isVisible: () => window.shown,
      isMinimized: () => window.min,
      isDestroyed: () => false,
    };
    const reports: boolean[] = [];
    watchVisibility(source, (visible) => reports.push(visible));
    window.shown = true;
    window.emit('show');
    window.min = true;
    window.emit('minimize');
    window.min = false;
    window.emit('restore');
    window.shown = false;
    window.emit('hide');
    window.emit('closed');
    expect(reports).toEqual([true, false, true, false, false]);
  });
});

describe('PlugboardTray over a Core that stops answering', () => {
  it('keeps its menu when a rebuild fails, says so, and says nothing of one that fails after dispose', async () => {
    core = testCore();
    const real = core;
    const { electron, trays } = fakeElectron();
    const logged: string[] = [];
    // What a linked Core's calls do once its link has closed (a service stopped, or the app quits).
    const lost = Object.assign(new Error('The Plugboard service stopped before it answered'), {
      code: 'UNREACHABLE',
    });
    let snapshot: () => ReturnType<Core['handlers']['app/snapshot']> = () =>
      real.handlers['app/snapshot']({});
    const tray = new PlugboardTray({
      electron,
      core: { ...real, handlers: { ...real.handlers, 'app/snapshot': () => snapshot() } },
      iconDir: '/icons',
      window: { show: vi.fn(), hide: vi.fn(), isVisible: () => false },
      quit: vi.fn(),
      log: (message) => logged.push(message),
      coalesceMs: 1,
    });
    await vi.waitFor(() => expect(trays[0]!.menus).toHaveLength(1));
    snapshot = () => Promise.reject(lost);
    tray.schedule();
    await vi.waitFor(() => expect(logged).toEqual(['The tray menu could not be brought up to date']));
    expect(trays[0]!.menus).toHaveLength(1);
    // The app quits while a rebuild waits for its answer: the failure that follows is not news.
    let fail: ((error: Error) => void) | null = null;
    snapshot = () => new Promise((_, reject) => (fail = reject));
    tray.schedule();
    await vi.waitFor(() => expect(fail).not.toBeNull());
    tray.dispose();
    fail!(lost);
    await new Promise((done) => setImmediate(done));
    expect(logged).toHaveLength(1);
  });
});

describe('electronNotifier', () => {
  it('shows notices where the desktop supports it, and logs a failure instead of throwing', () => {
    const shown: unknown[] = [];
    let supported = true;
    let broken = false;
    const Notification = class {
      static isSupported = () => supported;
      constructor(readonly options: unknown) {
        if (broken) throw new Error('no notification daemon');
      }
      show() {
        shown.push(this.options);
      }
    } as unknown as NotificationClass;
    const logged: string[] = [];
    const notify = electronNotifier(Notification, (message) => logged.push(message), '/icon.png');
    notify({ title: 'Bench A is offline', body: 'Cannot reach it.' });
    supported = false;
    notify({ title: 'x', body: 'y' });
    supported = true;
    broken = true;
    notify({ title: 'x', body: 'y' });
    expect(shown).toEqual([{ title: 'Bench A is offline', body: 'Cannot reach it.', icon: '/icon.png' }]);
    expect(logged).toEqual(['A notification could not be shown']);
  });
});
