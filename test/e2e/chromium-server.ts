/**
 * Global setup of the `browser` and `scale` projects: one Chromium for the whole run, as a Playwright
 * browser server on 127.0.0.1, instead of one per test file. Each file connects to it and opens fresh
 * contexts (test/e2e/chromium.ts); the teardown ends it.
 */
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { assertChromiumInstalled, CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

export default async function startSharedChromium(project: TestProject): Promise<() => Promise<void>> {
  assertChromiumInstalled();
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    host: '127.0.0.1',
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
