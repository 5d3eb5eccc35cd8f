/**
 * The app's Content Security Policy, shared by the Electron window and the web shell.
 *
 * - script-src 'self': only the bundled scripts; no inline script, no eval, no remote origin.
 * - style-src 'self': Svelte 5 emits component CSS as a file, runs transitions through the Web
 *   Animations API (element.animate) and sets dynamic styles through the CSSOM — none of which CSP
 *   governs — so inline styles are not needed. Only the Vite dev server, which injects CSS as
 *   <style> elements for hot reload, gets 'unsafe-inline' (`devStyles`).
 * - img-src / font-src allow data: because Vite inlines small assets as data: URLs.
 * - Everything else is 'none': no frames, objects, workers, forms or <base>.
 */
export interface CspOptions {
  /** Where the page may connect: nothing in Electron (it talks over IPC), the WebSocket in the web shell. */
  connect?: readonly string[];
  /** The Vite dev server injects styles as <style> elements. Never set for built pages. */
  devStyles?: boolean;
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const connect = options.connect?.length ? options.connect.join(' ') : "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${options.devStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
