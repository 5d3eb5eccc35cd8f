import { BrowserWindow, type WebContents, type WebPreferences } from 'electron';
import type { Logger } from '../shared/logging';
import type { AppPage } from './app-page';
import { openExternalSafely } from './external-links';

/** The renderer is untrusted web content: isolated, sandboxed, no Node, no <webview>. */
export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

export function createMainWindow(page: AppPage, icon?: string): BrowserWindow {
  const window = new BrowserWindow({
    ...(icon ? { icon } : {}),
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Plugboard',
    show: false,
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(page.preload),
  });
  window.once('ready-to-show', () => window.show());
  void (page.load.kind === 'url' ? window.loadURL(page.load.url) : window.loadFile(page.load.path));
  return window;
}

/**
 * Applied to every WebContents the app creates (from `web-contents-created`): the page can never
 * leave the app, open a window or attach a <webview>; a link meant for a new window goes to the
 * system browser, and only if it is http(s).
 */
export function guardWebContents(contents: WebContents, page: AppPage, log: Logger): void {
  contents.on('will-navigate', (event) => {
    // Reloading the app's own page stays allowed (the dev server's hot reload does that).
    if (page.isAppUrl(event.url)) return;
    event.preventDefault();
    log(`Blocked navigation of the window to ${describe(event.url)}.`);
  });
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return; // handled by will-navigate
    event.preventDefault();
    log(`Blocked navigation of a subframe to ${describe(event.url)}.`);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('Blocked a <webview>.');
  });
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url, log);
    return { action: 'deny' };
  });
}

function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? 'a local file' : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'a malformed address';
  }
}
