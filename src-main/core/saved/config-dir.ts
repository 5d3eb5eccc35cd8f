import { homedir } from 'node:os';
import path from 'node:path';

/** The product name Electron derives `userData` from (package.json `productName`). */
export const PRODUCT_NAME = 'Plugboard';

export interface ConfigDirEnvironment {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/**
 * Electron's `appData` for a platform, computed the way Electron does, so the CLI finds the app's
 * settings without loading Electron: `%APPDATA%` on Windows, `~/Library/Application Support` on macOS,
 * `$XDG_CONFIG_HOME` or `~/.config` elsewhere.
 */
function appDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support');
  // Chromium (base::nix::GetXDGDirectory) takes any non-empty value as is.
  const xdg = env.XDG_CONFIG_HOME;
  return xdg ? path.posix.normalize(xdg) : path.posix.join(home, '.config');
}

/** Where Plugboard keeps its settings: `$PLUGBOARD_CONFIG_DIR`, else Electron's `userData` for "Plugboard". */
export function plugboardConfigDir(environment: ConfigDirEnvironment = {}): string {
  const env = environment.env ?? process.env;
  const platform = environment.platform ?? process.platform;
  const override = env.PLUGBOARD_CONFIG_DIR?.trim();
  if (override) return path.resolve(override);
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return join(appDataDir(env, platform, environment.home ?? homedir()), PRODUCT_NAME);
}
