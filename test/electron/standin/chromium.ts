/**
 * The stand-in's renderer: Debian's Chromium through playwright-core, one browser per app process
 * (Electron runs one browser process too), a fresh profile, and a DevTools port on 127.0.0.1 so a
 * test can drive the same pages over CDP.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * How Electron treats the app's file:// page, as Chromium flags (see test/electron/README.md):
 * - --allow-file-access-from-files: an Electron page loaded with loadFile may load the app's other
 *   files (electron-vite's `<script type="module" crossorigin>` bundle, its CSS) from file://; plain
 *   Chromium refuses module scripts from the opaque file:// origin without it. Nothing else changes:
 *   the page's meta CSP, same-origin rules for http(s) and webSecurity stay as they are.
 * - --disable-gpu, --headless: no display or GPU here (GPU paths are not proven).
 * - --no-sandbox: Chromium's OS sandbox cannot start as root in a container. The preload's sandbox
 *   RULES are emulated in the page (page-sandbox.js); the OS sandbox itself is not proven.
 * - the rest keep Chromium from talking to the internet (Electron does not phone home either).
 */
export const CHROMIUM_FLAGS = [
  '--allow-file-access-from-files',
  '--headless',
  '--disable-gpu',
  '--no-sandbox',
  '--no-first-run',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--remote-debugging-address=127.0.0.1',
  '--remote-debugging-port=0',
];

export interface RunningChromium {
  context: BrowserContext;
  /** http://127.0.0.1:<port>, for chromium.connectOverCDP in the test. */
  endpoint: string;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<RunningChromium> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Debian's Chromium is missing (${CHROMIUM_PATH}).`);
  const profile = await mkdtemp(join(tmpdir(), 'plugboard-stand-in-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  const [port] = (await readFile(join(profile, 'DevToolsActivePort'), 'utf8')).split('\n');
  return {
    context,
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

// The file is one parenthesised function expression; without its final semicolon it can be called.
const sandboxSource = readFileSync(join(import.meta.dirname, 'page-sandbox.js'), 'utf8')
  .trim()
  .replace(/;$/, '');

/** The init script that runs a built CommonJS preload in the page before the page's scripts. */
export function preloadInitScript(preloadPath: string, binding: string, deliver: string): string {
  const config = { binding, deliver, preloadPath, platform: process.platform };
  const preload = readFileSync(preloadPath, 'utf8');
  return `${sandboxSource}(${JSON.stringify(config)}, function (require, module, exports, process, global, setImmediate, clearImmediate) {\n${preload}\n});`;
}
