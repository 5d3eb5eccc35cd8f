import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the window's code lives, and how to recognise the app's own page. */
export interface AppPage {
  /** Absolute path of the CommonJS preload (CommonJS so the window can keep `sandbox: true`). */
  preload: string;
  /** What the window loads: the electron-vite dev server in development, else the built index.html. */
  load: { kind: 'url'; url: string } | { kind: 'file'; path: string };
  /** True only for the app's own top-level page: the built index.html or a page of the dev server. */
  isAppUrl(url: string): boolean;
}

/**
 * `mainDir` is the directory of the built main bundle (out/main); the preload and the renderer are
 * its siblings. `devUrl` is electron-vite's ELECTRON_RENDERER_URL, honoured only in development.
 */
export function resolveAppPage(mainDir: string, devUrl?: string): AppPage {
  const preload = join(mainDir, '..', 'preload', 'index.cjs');
  if (devUrl) {
    const devOrigin = new URL(devUrl).origin;
    return { preload, load: { kind: 'url', url: devUrl }, isAppUrl: (url) => originOf(url) === devOrigin };
  }
  const index = join(mainDir, '..', 'renderer', 'index.html');
  return { preload, load: { kind: 'file', path: index }, isAppUrl: (url) => filePathOf(url) === index };
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

function filePathOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'file:' || parsed.host !== '') return null;
    parsed.search = '';
    parsed.hash = '';
    return fileURLToPath(parsed);
  } catch {
    return null;
  }
}
