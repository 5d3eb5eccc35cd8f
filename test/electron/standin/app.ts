/**
 * `app`: ready, paths, the single-instance lock and the quit sequence as Electron documents them —
 * before-quit, every window closed (a window may refuse), will-quit (may be prevented), quit. After
 * `quit` the stand-in closes Chromium and its control connection and then lets Node exit by itself,
 * which it does only once the app has stopped every timer and socket it started.
 */
import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { StandInBrowserWindow, electronEvent } from './browser-window';

interface PackageJson {
  name: string;
  productName?: string;
  version: string;
}

export class StandInApp extends EventEmitter {
  readonly isPackaged = false;
  /** What the app did that the test reads: lifecycle events in order, calls worth knowing. */
  readonly record = { events: [] as string[], sandboxEnabled: false, singleInstanceLock: false };
  readonly #pkg: PackageJson;
  readonly #appDir: string;
  #ready = false;
  #readyWaiters: (() => void)[] = [];
  #quitting = false;
  #quitScheduled = false;
  #onQuit: () => Promise<void>;

  constructor(appDir: string, onQuit: () => Promise<void>) {
    super();
    this.#appDir = appDir;
    this.#pkg = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as PackageJson;
    this.#onQuit = onQuit;
  }

  override emit(name: string | symbol, ...args: unknown[]): boolean {
    if (typeof name === 'string') this.record.events.push(name);
    return super.emit(name, ...args);
  }

  /** Called once the main script has run. */
  start(): void {
    this.emit('will-finish-launching');
    this.#ready = true;
    this.emit('ready', electronEvent(), {});
    for (const waiter of this.#readyWaiters.splice(0)) waiter();
  }

  whenReady(): Promise<void> {
    return this.#ready ? Promise.resolve() : new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  isReady(): boolean {
    return this.#ready;
  }

  getName(): string {
    return this.#pkg.productName ?? this.#pkg.name;
  }

  getVersion(): string {
    return this.#pkg.version;
  }

  getAppPath(): string {
    return this.#appDir;
  }

  getPath(name: string): string {
    const appData = process.env['XDG_CONFIG_HOME'] || join(homedir(), '.config');
    const paths: Record<string, string> = {
      home: homedir(),
      appData,
      userData: join(appData, this.getName()),
      temp: tmpdir(),
      logs: join(appData, this.getName(), 'logs'),
    };
    const path = paths[name];
    if (!path) throw new Error(`Failed to get '${name}' path`);
    return path;
  }

  /** Always granted here: each test run has its own profile, so there is never a first instance. */
  requestSingleInstanceLock(): boolean {
    this.record.singleInstanceLock = true;
    return true;
  }

  enableSandbox(): void {
    if (this.#ready) throw new Error('app.enableSandbox() can only be called before app is ready');
    this.record.sandboxEnabled = true;
  }

  quitting(): boolean {
    return this.#quitting;
  }

  allWindowsClosed(): void {
    if (!this.emit('window-all-closed')) this.quit();
  }

  quit(): void {
    if (this.#quitScheduled) return;
    this.#quitScheduled = true;
    setImmediate(() => {
      this.#quitScheduled = false;
      void this.#tryQuit();
    });
  }

  async #tryQuit(): Promise<void> {
    const before = electronEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) return;
    this.#quitting = true;
    for (const window of StandInBrowserWindow.getAllWindows()) {
      if (!(await window.close())) {
        this.#quitting = false;
        return;
      }
    }
    const willQuit = electronEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) {
      this.#quitting = false;
      return;
    }
    this.emit('quit', electronEvent(), 0);
    await this.#onQuit();
  }
}
