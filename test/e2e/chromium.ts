/**
 * Debian's Chromium for the browser tests (never a downloaded browser): where it is, the flags it runs
 * with, and the one browser the `browser` and `scale` projects share. Their global setup
 * (chromium-server.ts) starts it once as a Playwright browser server and provides its address; each test
 * file connects and opens contexts of its own, so files share the browser process and nothing else
 * (no storage, cookies or cache).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';

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

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's WebSocket address (`chromium.connect`), from the global setup. */
    chromiumEndpoint: string;
  }
}

export function assertChromiumInstalled(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Debian's Chromium is missing (${CHROMIUM_PATH}). Install it with \`apt-get install -y chromium\` (.ci/run does).`,
    );
  }
}

/** Start Chromium with the suite's flags (headless), for the global setup or a script of its own. */
export function launchChromium(): Promise<Browser> {
  assertChromiumInstalled();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

/**
 * The browser for one test file: a connection to the shared Chromium when the project's global setup
 * started one, else a Chromium of its own (a bench script, or a project without the setup). Closing a
 * connection leaves the shared browser running; closing an own browser ends it.
 */
export async function openChromium(): Promise<Browser> {
  // `inject` reads Vitest's worker state, which only a test run has (bench scripts import this too).
  const endpoint = process.env['VITEST'] ? inject('chromiumEndpoint') : undefined;
  if (!endpoint) return launchChromium();
  try {
    return await chromium.connect(endpoint);
  } catch (error) {
    throw new Error(
      `The shared Chromium (${endpoint}, started by test/e2e/chromium-server.ts) did not take a connection: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
