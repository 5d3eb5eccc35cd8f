/**
 * Browser test harness (INTERFACES.md §4): the web shell on an ephemeral 127.0.0.1 port — in-process,
 * or as the built shell's own process (what `npm run web` runs once it has built) — and Debian's
 * Chromium driven by playwright-core (never a downloaded browser), a fresh context (storage, cookies,
 * cache) for each session, and screenshots under test-results/screenshots/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Download, Page } from 'playwright-core';
import type { Core } from '../../src-main/core/index';
import { startWebShell } from '../../src-main/web/server';
import type { PlugboardApi } from '../../src-preload/contract';
import { openChromium } from './chromium';

export { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

declare global {
  interface Window {
    /** What the page sees (the web shell's preload); typed here for `page.evaluate` callbacks. */
    plugboard: PlugboardApi;
  }
}

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const rendererDir = join(repoRoot, 'out', 'renderer');
export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');
/** The version in package.json: what app/info reports and the window shows. */
export const packageVersion = (
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }
).version;
/** The built web shell: what `npm run web` runs once it has built (package.json's `web` script). */
export const builtWebShell = join(repoRoot, 'out', 'main', 'web.js');

/** A running web shell: open `url` (it carries the token); `origin` is what its pages run as. */
export interface WebApp {
  url: string;
  token: string;
  origin: string;
  close(): Promise<void>;
}

/** Fail early and clearly when the e2e prerequisites are missing. */
export function assertRendererBuilt(): void {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(
      `The built renderer is missing (${rendererDir}/index.html). Run \`npx electron-vite build\` first (\`npm test\` and \`npm run test:all\` do).`,
    );
  }
}

/**
 * The web shell in this process: fast, and a test can hand it its own Core. Without one, a throwaway
 * Core (nothing read from or saved to the config folder or the keychain), with the demo controllers
 * when `demo` is set. `port` and `token` start it again where a closed one was (a restart).
 */
export async function startWebApp(
  options: { core?: Core; demo?: boolean; port?: number; token?: string } = {},
): Promise<WebApp> {
  assertRendererBuilt();
  const shell = await startWebShell({
    port: options.port ?? 0,
    ...(options.token ? { token: options.token } : {}),
    ephemeral: true,
    demo: options.demo ?? false,
    rendererDir,
    log: () => undefined,
    ...(options.core ? { core: options.core } : {}),
  });
  return { url: shell.url, token: shell.token, origin: new URL(shell.url).origin, close: shell.close };
}

/**
 * The built web shell in its own process, as `npm run web -- <args>` starts it once its build is done
 * (`node out/main/web.js`; the run's one build made it), with a fresh empty config folder. Resolves
 * once the URL is printed. Closing sends SIGTERM and waits for the process to end.
 */
export async function startBuiltWebShell(args: string[] = []): Promise<WebApp & { output(): string }> {
  assertRendererBuilt();
  if (!existsSync(builtWebShell))
    throw new Error(
      `The built web shell is missing (${builtWebShell}). Run \`npx electron-vite build\` first (\`npm run test:all\` does).`,
    );
  const configDir = await mkdtemp(join(tmpdir(), 'plugboard-e2e-config-'));
  const child = spawn(process.execPath, [builtWebShell, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PLUGBOARD_CONFIG_DIR: configDir, FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );

  const close = async () => {
    await stop(child, exited);
    await rm(configDir, { recursive: true, force: true });
  };
  try {
    // The URL, or the exit that means it will never come; a hang is left to the hook's timeout.
    const url = await new Promise<string>((done, fail) => {
      const look = () => {
        const match = /Plugboard web shell: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
        if (match) done(match[1]!);
      };
      child.stdout!.on('data', look);
      void exited.then((code) =>
        fail(new Error(`The web shell exited (${code}) before printing its URL. Output:\n${output}`)),
      );
    });
    const token = new URL(url).searchParams.get('token')!;
    return { url, token, origin: new URL(url).origin, close, output: () => output };
  } catch (error) {
    await close();
    throw error;
  }
}

async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}

/** A fresh browser context (no storage, cookies or cache from any other session) with one page. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors (CSP violations among them) and uncaught page errors, in order. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A new context in the shared Chromium (or a Chromium of its own outside a test run: chromium.ts),
 * with one page whose console errors and page errors are collected.
 */
export async function launchBrowser(): Promise<BrowserSession> {
  const browser = await openChromium();
  let context: BrowserContext;
  let page: Page;
  try {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  } catch (error) {
    await browser.close();
    throw error;
  }
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' || isFaviconMiss(message.location().url)) return;
    errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}

/**
 * What a download holds, as text. Read as a stream: the browser runs in another process (the shared
 * Chromium), where the file stays.
 */
export async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Chromium asks every site for /favicon.ico; a 404 there says nothing about the app. */
function isFaviconMiss(url: string): boolean {
  try {
    return new URL(url).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}

/**
 * Save a screenshot as test-results/screenshots/<name>.png, of the full page or (`fullPage: false`)
 * of what the window shows; returns its path.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  if (!/^[\w-]+$/.test(name))
    throw new Error(`Screenshot names are letters, digits, - and _: ${JSON.stringify(name)}`);
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}
