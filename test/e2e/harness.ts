/**
 * Browser test harness (INTERFACES.md §4): the web shell on an ephemeral 127.0.0.1 port — in-process,
 * or as the real `npm run web` child process — and Debian's Chromium driven by playwright-core
 * (never a downloaded browser), with a fresh profile per launch and screenshots under
 * test-results/screenshots/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Core } from '../../src-main/core/index';
import { startWebShell } from '../../src-main/web/server';
import type { PlugboardApi } from '../../src-preload/contract';

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
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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
      `The built renderer is missing (${rendererDir}/index.html). Run \`npx electron-vite build\` first (\`npm test\` does).`,
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
 * `npm run web -- <args>` exactly as a person runs it (it builds, then serves), in its own process
 * group so closing stops npm, tsx and node together, with a fresh empty config folder. Resolves once
 * the URL is printed.
 */
export async function startWebCommand(args: string[] = []): Promise<WebApp & { output(): string }> {
  const configDir = await mkdtemp(join(tmpdir(), 'plugboard-e2e-config-'));
  const child = spawn('npm', ['run', '--silent', 'web', '--', ...args], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PLUGBOARD_CONFIG_DIR: configDir, FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const close = async () => {
    await stopGroup(child, exited);
    await rm(configDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`npm run web printed no URL within 60 s. Output:\n${output}`)),
        60_000,
      );
      const look = () => {
        const match = /Plugboard web shell: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
        if (!match) return;
        clearTimeout(timer);
        done(match[1]!);
      };
      child.stdout!.on('data', look);
      void exited.then((code) => {
        clearTimeout(timer);
        fail(new Error(`npm run web exited (code ${code}) before printing its URL. Output:\n${output}`));
      });
    });
    const token = new URL(url).searchParams.get('token')!;
    return { url, token, origin: new URL(url).origin, close, output: () => output };
  } catch (error) {
    await close();
    throw error;
  }
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is already gone.
    }
  };
  signal('SIGTERM');
  const timeout = new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 10_000).unref());
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    signal('SIGKILL');
    await exited;
  }
}

/** A headless Chromium with a fresh profile; console errors and page errors are collected. */
export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors (CSP violations among them) and uncaught page errors, in order. */
  errors: string[];
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Debian's Chromium is missing (${CHROMIUM_PATH}). Install it with \`apt-get install -y chromium\` (.ci/run does).`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'plugboard-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 800 },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
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
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Chromium asks every site for /favicon.ico; a 404 there says nothing about the app. */
function isFaviconMiss(url: string): boolean {
  try {
    return new URL(url).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}

/** Save a full-page screenshot as test-results/screenshots/<name>.png; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  if (!/^[\w-]+$/.test(name))
    throw new Error(`Screenshot names are letters, digits, - and _: ${JSON.stringify(name)}`);
  await mkdir(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
