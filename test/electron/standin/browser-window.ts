/**
 * BrowserWindow and its webContents: each window is a Chromium page. The window's preload runs in
 * the page before its scripts (page-sandbox.js), its IPC reaches ipcMain over a CDP binding, and
 * show/hide/close follow Electron's events. Headless Chromium draws no window, so "visible" is the
 * state the app asked for.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import type { Frame, Page } from 'playwright-core';
import { preloadInitScript, type RunningChromium } from './chromium';
import type { IpcEvent, SenderFrame, StandInIpcMain } from './ipc-main';

export interface WindowHost {
  chromium(): Promise<RunningChromium>;
  ipcMain: StandInIpcMain;
  /** app.emit, for web-contents-created. */
  emitApp(name: string, ...args: unknown[]): boolean;
  /** The last window is gone (not while quitting): window-all-closed, or quit if nobody listens. */
  allWindowsClosed(): void;
  /** True while app.quit() closes the windows (Electron then skips window-all-closed). */
  quitting(): boolean;
  preloadError(message: string): void;
}

interface Options {
  show?: boolean;
  width?: number;
  height?: number;
  title?: string;
  webPreferences?: { preload?: string; sandbox?: boolean; contextIsolation?: boolean };
}

let nextId = 1;

/** An Electron event object: preventDefault() is how a listener says no. */
export function electronEvent(extra: object = {}) {
  const event = { defaultPrevented: false, preventDefault: () => void (event.defaultPrevented = true) };
  return Object.assign(event, extra);
}

function frameOf(source: { frame: Frame }): SenderFrame {
  const chain = (frame: Frame): SenderFrame => {
    const parent = frame.parentFrame();
    return { url: frame.url(), parent: parent ? chain(parent) : null };
  };
  return chain(source.frame);
}

export class StandInWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly ready: Promise<Page>;
  page: Page | null = null;
  windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
  #destroyed = false;
  readonly #deliver = `__standInDeliver_${randomUUID().replaceAll('-', '')}`;

  constructor(host: WindowHost, options: Options) {
    super();
    this.ready = this.#open(host, options);
    this.ready.catch((error: unknown) => console.error('The stand-in could not open a page:', error));
  }

  async #open(host: WindowHost, options: Options): Promise<Page> {
    const { context } = await host.chromium();
    const page =
      context.pages().find((p) => p.url() === 'about:blank' && !taken.has(p)) ?? (await context.newPage());
    taken.add(page);
    await page.setViewportSize({ width: options.width ?? 800, height: options.height ?? 600 });
    const binding = `__standInIpc_${randomUUID().replaceAll('-', '')}`;
    await page.exposeBinding(
      binding,
      (source, message: { kind: string; channel?: string; args?: unknown[]; message?: string }) => {
        const event: IpcEvent = { sender: this, senderFrame: frameOf(source), processId: 1, frameId: 1 };
        if (message.kind === 'invoke')
          return host.ipcMain.invoke(event, message.channel!, message.args ?? []);
        if (message.kind === 'send') host.ipcMain.emit(message.channel!, event, ...(message.args ?? []));
        if (message.kind === 'preload-error') {
          host.preloadError(message.message ?? '');
          this.emit(
            'preload-error',
            electronEvent(),
            options.webPreferences?.preload,
            new Error(message.message),
          );
        }
        return null;
      },
    );
    const preload = options.webPreferences?.preload;
    if (preload) await page.addInitScript({ content: preloadInitScript(preload, binding, this.#deliver) });
    this.page = page;
    return page;
  }

  getURL(): string {
    return this.page && !this.page.isClosed() ? this.page.url() : '';
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  send(channel: string, ...args: unknown[]): void {
    const deliver = this.#deliver;
    void this.ready
      .then((page) =>
        page.evaluate(
          ([name, channel, args]) => {
            const target = (window as unknown as Record<string, unknown>)[name];
            if (typeof target === 'function') target(channel, args);
          },
          [deliver, channel, args] as const,
        ),
      )
      // A page that navigates or closes meanwhile does not get it (as in Electron).
      .catch(() => undefined);
  }

  setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
    this.windowOpenHandler = handler;
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    const page = await this.ready.catch(() => null);
    await page?.close().catch(() => undefined);
    this.emit('destroyed');
  }
}

const taken = new WeakSet<Page>();
const windows = new Set<StandInBrowserWindow>();
let host: WindowHost | null = null;

export function setWindowHost(windowHost: WindowHost): void {
  host = windowHost;
}

export class StandInBrowserWindow extends EventEmitter {
  static getAllWindows(): StandInBrowserWindow[] {
    return [...windows];
  }

  static getFocusedWindow(): StandInBrowserWindow | null {
    return [...windows].findLast((w) => w.#focused) ?? null;
  }

  readonly id = nextId++;
  readonly webContents: StandInWebContents;
  readonly options: Options;
  #visible = false;
  #minimized = false;
  #focused = false;
  #destroyed = false;
  #shownOnce = false;

  constructor(options: Options = {}) {
    super();
    if (!host) throw new Error('BrowserWindow cannot be created before the app is ready');
    this.options = options;
    this.webContents = new StandInWebContents(host, options);
    windows.add(this);
    host.emitApp('browser-window-created', electronEvent(), this);
    host.emitApp('web-contents-created', electronEvent(), this.webContents);
    if (options.show !== false) this.show();
  }

  loadFile(path: string): Promise<void> {
    return this.loadURL(pathToFileURL(path).href);
  }

  async loadURL(url: string): Promise<void> {
    const page = await this.webContents.ready;
    await page.goto(url);
    this.webContents.emit('did-finish-load');
    if (!this.#shownOnce) {
      this.#shownOnce = true;
      this.emit('ready-to-show');
    }
  }

  show(): void {
    if (this.#destroyed) return;
    this.#focused = true;
    if (this.#visible && !this.#minimized) return;
    this.#visible = true;
    this.#minimized = false;
    this.emit('show');
  }

  hide(): void {
    if (this.#destroyed || !this.#visible) return;
    this.#visible = false;
    this.#focused = false;
    this.emit('hide');
  }

  focus(): void {
    if (!this.#destroyed) this.#focused = true;
  }

  minimize(): void {
    if (this.#destroyed || this.#minimized) return;
    this.#minimized = true;
    this.emit('minimize');
  }

  restore(): void {
    if (this.#destroyed || !this.#minimized) return;
    this.#minimized = false;
    this.emit('restore');
  }

  isVisible(): boolean {
    return !this.#destroyed && this.#visible;
  }

  isMinimized(): boolean {
    return this.#minimized;
  }

  isFocused(): boolean {
    return this.#focused;
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  /** As the window's close button: 'close' may be prevented; otherwise the window is destroyed. */
  async close(): Promise<boolean> {
    if (this.#destroyed) return true;
    const event = electronEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    await this.destroy();
    return true;
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#visible = false;
    windows.delete(this);
    await this.webContents.destroy();
    this.emit('closed');
    if (windows.size === 0 && host && !host.quitting()) host.allWindowsClosed();
  }
}
