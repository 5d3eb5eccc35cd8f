/**
 * The test projects (test/projects.ts says which file goes where and why). `npm test` runs `fast` and
 * `renderer`, the loop to run while working; `npm run test:all` runs every project after the checks and
 * one build (`.ci/run` runs it). test/projects.test.ts checks that each file belongs to exactly one
 * project (besides the `real-unit` rerun).
 */
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { filesByProject } from './test/projects';

const root = import.meta.dirname;
const files = filesByProject(root);

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'fast',
          environment: 'node',
          include: files.fast,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // The fast files that exercise the emulator's real-unit profile (they say `@real-unit`), again
          // against it (test/core/harness.ts reads the variable).
          name: 'real-unit',
          environment: 'node',
          include: files['real-unit'],
          env: { PLUGBOARD_TEST_REAL_UNIT: '1' },
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') }), svelteTesting()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: files.renderer,
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
      {
        test: {
          name: 'system',
          environment: 'node',
          globalSetup: [
            'test/global-node.ts',
            'test/secrets/keychain-global-setup.ts',
            'test/system/postgres-global-setup.ts',
          ],
          include: files.system,
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'node',
          include: files.browser,
          // One Chromium for the run (test/e2e/chromium-server.ts); each file opens its own contexts.
          globalSetup: ['test/e2e/chromium-server.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Two files at a time (about a third less time on two cores, stable under stress-ng), in a group
          // of their own: after the in-process projects, before the one-at-a-time ones.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'scale',
          environment: 'node',
          include: files.scale,
          globalSetup: ['test/e2e/chromium-server.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'electron',
          environment: 'node',
          globalSetup: ['test/global-node.ts'],
          // The built app (out/, which `npm run test:all` builds first) under the Electron stand-in.
          include: files.electron,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'packaging',
          environment: 'node',
          globalSetup: ['test/global-node.ts'],
          include: files.packaging,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
