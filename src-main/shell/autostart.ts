/**
 * Start Plugboard at login (a tray app's quick toggles and notifications need it running; off by
 * default, the `startAtLogin` setting). macOS and Windows: Electron's login items. Linux: Electron's
 * `setLoginItemSettings` does nothing there, so an XDG autostart entry,
 * `$XDG_CONFIG_HOME/autostart/plugboard.desktop` (default `~/.config/autostart`), which every
 * freedesktop session (GNOME, KDE, Xfce, …) starts at login.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Settings } from '../../src-preload/model';
import type { Logger } from '../shared/logging';

export const AUTOSTART_FILE_NAME = 'plugboard.desktop';

/** The part of Electron's `app` this needs (macOS, Windows). */
export interface LoginItems {
  setLoginItemSettings(settings: { openAtLogin: boolean }): void;
}

export interface AutostartOptions {
  /** Electron's `app`. */
  loginItems: LoginItems;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** The installed app's binary (Electron's `process.execPath`). */
  execPath?: string;
}

/** Where the Linux autostart entry lives. */
export function autostartFile(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const config = env.XDG_CONFIG_HOME
    ? path.posix.normalize(env.XDG_CONFIG_HOME)
    : path.posix.join(home, '.config');
  return path.posix.join(config, 'autostart', AUTOSTART_FILE_NAME);
}

/**
 * One argument of a desktop entry's Exec key, quoted as the Desktop Entry Specification says: inside
 * double quotes, `"`, `` ` ``, `$` and `\` are escaped with a backslash; `%` is written `%%`.
 */
export function execArgument(value: string): string {
  const escaped = value.replace(/["`$\\]/g, (c) => `\\${c}`).replace(/%/g, '%%');
  return /^[\w/.+-]+$/.test(value) ? escaped : `"${escaped}"`;
}

export function autostartEntry(command: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Plugboard',
    'Comment=Network power controllers in the tray',
    `Exec=${execArgument(command)}`,
    'Icon=plugboard-desktop',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * Turn starting at login on or off. On Linux the entry starts the AppImage file when Plugboard runs
 * from one (`$APPIMAGE`: the binary itself sits in a mount that changes every run), else the binary.
 */
export async function applyStartAtLogin(enabled: boolean, options: AutostartOptions): Promise<void> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    options.loginItems.setLoginItemSettings({ openAtLogin: enabled });
    return;
  }
  const env = options.env ?? process.env;
  const file = autostartFile(env, options.home);
  if (!enabled) {
    await rm(file, { force: true });
    return;
  }
  const command = env.APPIMAGE || options.execPath || process.execPath;
  await mkdir(path.posix.dirname(file), { recursive: true });
  // Written beside and renamed over, so a session starting meanwhile never reads half a file.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, autostartEntry(command), { mode: 0o644 });
  await rename(partial, file);
}

/**
 * Keep the login item in step with the `startAtLogin` setting: once at start (the setting may have
 * been changed by another Plugboard process), then on every `settings/changed`. Returns the unsubscribe.
 */
export function syncStartAtLogin(
  core: {
    subscribe(sink: (name: string, payload: unknown) => void): () => void;
    handlers: { 'settings/get': (input: Record<string, never>) => Promise<Settings> };
  },
  options: AutostartOptions & { log: Logger },
): () => void {
  let applied: boolean | undefined;
  let queue = Promise.resolve();
  const apply = (enabled: boolean): void => {
    queue = queue.then(async () => {
      if (enabled === applied) return;
      try {
        await applyStartAtLogin(enabled, options);
        applied = enabled;
      } catch (error) {
        options.log(`Could not turn starting at login ${enabled ? 'on' : 'off'}`, error);
      }
    });
  };
  let changed = false;
  const stop = core.subscribe((name, payload) => {
    if (name !== 'settings/changed') return;
    changed = true;
    apply((payload as Settings).startAtLogin);
  });
  void core.handlers['settings/get']({}).then(
    // A change that arrived meanwhile is newer than this read.
    (settings) => changed || apply(settings.startAtLogin),
    (error: unknown) => options.log('Could not read the start-at-login setting', error),
  );
  return stop;
}
