import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';

const root = import.meta.dirname;

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**', 'test/bench/**', 'test/electron/**'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          // Every Core and CLI test that talks to an emulator, again against the emulator's real-unit
          // profile (test/core/harness.ts reads the variable; slow outlet answers scaled down to 300 ms).
          name: 'node-real-unit',
          environment: 'node',
          include: ['test/core/**/*.test.ts', 'test/cli/**/*.test.ts'],
          // Left out: files that start no emulator, where the profile changes nothing. Pure units
          // (pending, poller, notifications, tray menu, meter history, credentials, config folder, the
          // CLI's parsing and output) and the stores (activity log, conf store, registry, settings,
          // several processes over one settings folder and keychain: config-processes).
          exclude: [
            'test/core/activity-log.test.ts',
            'test/core/activity-disk-full.test.ts',
            'test/core/conf-store.test.ts',
            'test/core/config-dir.test.ts',
            'test/core/config-processes.test.ts',
            'test/core/credentials.test.ts',
            'test/core/meter-history.test.ts',
            'test/core/notifications.test.ts',
            'test/core/pending.test.ts',
            'test/core/pending-unanswered.test.ts',
            'test/core/poller.test.ts',
            'test/core/registry.test.ts',
            'test/core/settings.test.ts',
            'test/core/tray-menu.test.ts',
            'test/cli/output.test.ts',
          ],
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
          include: ['test/renderer/**/*.test.ts'],
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // One Chromium at a time: these machines have two cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'electron',
          environment: 'node',
          // The built app (out/, which `npm test` builds first) under the Electron stand-in.
          include: ['test/electron/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // Each file starts the app, a Chromium and a keyring: one at a time, and only after the other
          // projects (group 0) are done — the e2e project rebuilds out/ (`npm run web`) while it runs.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
