/**
 * Starts the BUILT app (out/, from `npx electron-vite build`; `npm test` builds first) under the
 * Electron stand-in, the way a person starts it: its own process, inside a private D-Bus session with
 * an unlocked gnome-keyring (the real Secret Service, as test/secrets does), a HOME and config folder of
 * the test's choosing. The test drives the window over CDP and reads the tray and notifications over
 * the stand-in's control socket.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, onTestFailed, vi } from 'vitest';
import type { StandInState } from './standin/electron';
import type { MenuItemView } from './standin/recorders';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const appIndex = join(repoRoot, 'out', 'renderer', 'index.html');
const boot = join(import.meta.dirname, 'standin', 'boot.mjs');

/** The first item of the tray's menu, submenus included, whose label matches. */
export function trayItem(menu: MenuItemView[], label: RegExp): MenuItemView | undefined {
  for (const item of menu) {
    if (item.label !== undefined && label.test(item.label)) return item;
    const inner = item.submenu && trayItem(item.submenu, label);
    if (inner) return inner;
  }
  return undefined;
}

/** How long the app may take to show something (a busy two-core machine). */
export const APP_TIMEOUT = 30_000;

export function eventually<T>(read: () => T | Promise<T>, timeout = APP_TIMEOUT) {
  return expect.poll(read, { timeout, interval: 100 });
}

/** Poll `read` until it gives a value (not null/undefined/false); returns that value. */
export function until<T>(
  read: () => T | Promise<T>,
  what: string,
  timeout = APP_TIMEOUT,
): Promise<NonNullable<T>> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (value === null || value === undefined || value === false)
        throw new Error(`Still waiting for ${what}`);
      return value as NonNullable<T>;
    },
    { timeout, interval: 100 },
  );
}

/**
 * The exit code once the process has ended by itself (after `release`), however long a loaded machine
 * takes. A process that never ends is a hang, which the test's timeout ends; the app's output is printed
 * with that failure.
 */
export async function exitOf(app: DesktopApp): Promise<number | string> {
  onTestFailed(() => {
    if (!app.hasExited())
      console.error(
        `The app had not ended after it quit: something it started was not stopped. Its output:\n${app.output()}`,
      );
  });
  return app.exited;
}

export interface DesktopApp {
  state(): Promise<StandInState>;
  clickTray(item: string): Promise<void>;
  closeWindow(id: number): Promise<boolean>;
  /** Click button `response` of the oldest message box the app is showing. */
  answerDialog(response: number): Promise<void>;
  /** Ask the app to quit, as the tray's Quit or the OS would (`app.quit()`). */
  quit(): Promise<void>;
  /** A window with the app's preload showing another page; resolves with its window id. */
  openWindow(url: string, like: number): Promise<number>;
  /** The page at `url` (the app's own page unless said), driven over CDP. */
  page(url?: string): Promise<Page>;
  /** After `quit`, the stand-in holds the process until this (see standin/electron.ts). */
  release(): Promise<void>;
  /**
   * Answers once the app's event loop has run a timer of `ms` milliseconds: every timer the app had due
   * sooner (a poller's, say) has fired by then, however slowly the machine runs.
   */
  afterAppTimer(ms: number): Promise<void>;
  /** Whether the app has emitted `quit`. */
  hasQuit(): boolean;
  /** Resolves when the app emits `quit`; rejects if the process ends without it. */
  quitted: Promise<void>;
  /** Run `listener` the moment the test hears that the app emitted `quit`. */
  onQuit(listener: () => void): void;
  /** Resolves when the process exits: its exit code, or the signal that ended it. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** The app's console output so far, for failure messages. */
  output(): string;
  /** Stop the process group if it is still running, and forget the control socket. */
  close(): Promise<void>;
}

export interface StartOptions {
  home: string;
  configDir: string;
  /** The app to run (default: this repository, i.e. the built out/main/index.js). */
  appDir?: string;
  env?: NodeJS.ProcessEnv;
}

export async function startDesktopApp(options: StartOptions): Promise<DesktopApp> {
  const appDir = options.appDir ?? repoRoot;
  if (appDir === repoRoot)
    for (const built of [
      appIndex,
      join(repoRoot, 'out', 'main', 'index.js'),
      join(repoRoot, 'out', 'preload', 'index.cjs'),
    ])
      if (!existsSync(built))
        throw new Error(`${built} is missing: run \`npx electron-vite build\` first (\`npm test\` does).`);
  const socketDir = await mkdtemp(join(tmpdir(), 'plugboard-stand-in-'));
  const socketPath = join(socketDir, 'control.sock');
  const server = createServer();
  const connected = new Promise<Socket>((done) => server.once('connection', done));
  await new Promise<void>((done) => server.listen(socketPath, done));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: options.home,
    XDG_DATA_HOME: join(options.home, 'data'),
    XDG_CONFIG_HOME: join(options.home, 'config'),
    PLUGBOARD_CONFIG_DIR: options.configDir,
    PLUGBOARD_STANDIN_CONTROL: socketPath,
    DISPLAY: '',
    ...options.env,
  };
  delete env['ELECTRON_RENDERER_URL'];
  delete env['NODE_OPTIONS'];
  const unlockKeyring =
    'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$0" "$@"';
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', unlockKeyring, process.execPath, boot, appDir], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );

  const socket = await Promise.race([
    connected,
    exited.then((code) => {
      throw new Error(`The app exited (${code}) before it connected to the test:\n${output}`);
    }),
  ]);
  let hasQuit = false;
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const quitListeners: (() => void)[] = [];
  const quitted = new Promise<void>((done, fail) => {
    quitListeners.push(done);
    void exited.then((code) => fail(new Error(`The app exited (${code}) without quitting:\n${output}`)));
  });
  quitted.catch(() => undefined); // a test that never waits for the quit is not failed by it
  const waiting = new Map<number, { done(value: unknown): void; fail(error: Error): void }>();
  let nextId = 1;
  createInterface({ input: socket }).on('line', (line) => {
    const message = JSON.parse(line) as {
      id?: number;
      ok?: boolean;
      value?: unknown;
      error?: string;
      event?: string;
    };
    if (message.event === 'quit') {
      hasQuit = true;
      for (const listener of quitListeners) listener();
    }
    if (message.id === undefined) return;
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.ok) waiter?.done(message.value);
    else waiter?.fail(new Error(message.error));
  });
  const request = <T>(op: string, args: object = {}): Promise<T> =>
    new Promise<T>((done, fail) => {
      const id = nextId++;
      waiting.set(id, { done: done as (value: unknown) => void, fail });
      socket.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  void exited.then(() => {
    for (const waiter of waiting.values()) waiter.fail(new Error(`The app exited:\n${output}`));
    waiting.clear();
  });

  let browser: Browser | null = null;
  const app: DesktopApp = {
    state: () => request<StandInState>('state'),
    clickTray: (item) => request('clickTray', { item }),
    closeWindow: (id) => request('closeWindow', { window: id }),
    answerDialog: (response) => request('answerDialog', { response }),
    quit: () => request('quit'),
    openWindow: (url, like) => request('openWindow', { url, like }),
    async page(url = `file://${appIndex}`) {
      if (!browser) {
        const endpoint = await until(async () => (await app.state()).cdpEndpoint, 'Chromium to start');
        browser = await chromium.connectOverCDP(endpoint);
      }
      const connected = browser;
      return until(
        () =>
          connected
            .contexts()
            .flatMap((c) => c.pages())
            // The window keeps its place in the fragment (#/local/overview): the page is the same.
            .find((p) => p.url().split('#')[0] === url),
        `a page at ${url}`,
      );
    },
    release: () => request('release'),
    afterAppTimer: (ms) => request('afterTimer', { ms }),
    hasQuit: () => hasQuit,
    quitted,
    onQuit: (listener) => void quitListeners.push(listener),
    exited,
    hasExited: () => hasExited,
    output: () => output,
    async close() {
      await browser?.close().catch(() => undefined);
      // SIGTERM first: playwright closes its Chromium on it (Chromium runs in a process group of its own).
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (child.exitCode !== null || child.signalCode !== null) break;
        try {
          process.kill(-child.pid!, signal);
        } catch {
          break; // Already gone.
        }
        await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000).unref())]);
      }
      socket.destroy();
      server.close();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
  return app;
}
