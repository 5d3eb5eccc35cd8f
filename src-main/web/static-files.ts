import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';

export interface StaticFile {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Where the web shell's own `window.plugboard` is served (an external file, so script-src stays 'self'):
 * built from page/web-preload.ts into the renderer's folder under this name (electron.vite.config.ts).
 */
export const WEB_PRELOAD_PATH = '/plugboard-web-preload.js';

/**
 * Every file of the built renderer, read once at start and keyed by URL path. Requests are answered
 * by exact lookup in this map, so no request path ever reaches the file system (no traversal).
 * The page gets the web preload (a file of the build, WEB_PRELOAD_PATH) injected ahead of the app's own
 * module script.
 */
export async function loadRenderer(rendererDir: string): Promise<Map<string, StaticFile>> {
  const indexPath = join(rendererDir, 'index.html');
  if (!existsSync(indexPath)) {
    throw new Error(
      `The built window is missing (${indexPath}). Build it first with \`npx electron-vite build\` (\`npm run web\` does that).`,
    );
  }
  const files = new Map<string, StaticFile>();
  for (const path of await listFiles(rendererDir)) {
    const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
    files.set(`/${relative(rendererDir, path).split(sep).join('/')}`, { body: await readFile(path), type });
  }
  if (!files.has(WEB_PRELOAD_PATH))
    throw new Error(
      `The built window has no web preload (${join(rendererDir, WEB_PRELOAD_PATH)}). Build it with \`npx electron-vite build\` (\`npm run web\` does that).`,
    );
  const index = {
    body: Buffer.from(injectWebPreload(files.get('/index.html')!.body.toString('utf8'))),
    type: TYPES['.html']!,
  };
  files.set('/index.html', index);
  files.set('/', index);
  return files;
}

/**
 * Put the web preload first in <head> (classic scripts run before module scripts), and drop the
 * page's <meta> CSP: the web shell sends its own policy as a header, which must also allow the
 * WebSocket, and a meta policy would be enforced on top of it.
 */
export function injectWebPreload(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) throw new Error('The built index.html has no <head>; cannot add the web preload.');
  const at = head.index + head[0].length;
  const withScript = `${html.slice(0, at)}\n    <script src="${WEB_PRELOAD_PATH}"></script>${html.slice(at)}`;
  return withScript.replace(/\s*<meta\s+http-equiv=["']?content-security-policy["']?[^>]*>/gi, '');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return listFiles(path);
      return Promise.resolve(entry.isFile() ? [path] : []);
    }),
  );
  return nested.flat();
}
