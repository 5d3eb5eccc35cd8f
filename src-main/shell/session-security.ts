import type { Session } from 'electron';
import type { Logger } from '../shared/logging';
import type { AppPage } from './app-page';
import { contentSecurityPolicy } from '../shared/csp';

/**
 * Permissions the page may use. Only writing plain text to the clipboard (a "copy" button); the
 * camera, microphone, location, notifications, HID, serial and the rest are refused — Plugboard
 * talks to controllers from the main process, never from the page.
 */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export interface SessionSecurityOptions {
  page: AppPage;
  /** The dev server injects <style> elements and talks to the page over its own WebSocket. */
  devServerUrl?: string;
  log: Logger;
}

/**
 * A strict CSP as a response header on everything the window loads (the renderer's <meta> CSP is the
 * fallback where a header cannot apply), and every permission request refused unless allow-listed
 * above and asked for by the app's own page.
 */
export function secureSession(session: Session, options: SessionSecurityOptions): void {
  const policy = contentSecurityPolicy(
    options.devServerUrl
      ? { devStyles: true, connect: ["'self'", devSocketOrigin(options.devServerUrl)] }
      : {},
  );
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [policy] } });
  });

  const allowed = (permission: string, url: string) =>
    ALLOWED_PERMISSIONS.has(permission) && options.page.isAppUrl(url);
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const ok = allowed(permission, details.requestingUrl ?? contents?.getURL() ?? '');
    if (!ok) options.log(`Refused the page's request for the ${permission} permission.`);
    callback(ok);
  });
  session.setPermissionCheckHandler((contents, permission, _origin, details) =>
    allowed(permission, details.requestingUrl ?? contents?.getURL() ?? ''),
  );
}

function devSocketOrigin(devServerUrl: string): string {
  const url = new URL(devServerUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}
