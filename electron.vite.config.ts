import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(root, 'src-main/shell/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload (the window keeps `sandbox: true`) must be CommonJS, and its `require`
      // knows only `electron`, `events`, `timers` and `url`: anything else (valibot, via the contract)
      // has to be bundled into this one file. electron-vite externalises `dependencies` for the
      // preload too unless `externalizeDeps` is off; `electron` itself stays external (it always is).
      // test/electron/preload-bundle.test.ts checks the built file.
      externalizeDeps: false,
      lib: { entry: resolve(root, 'src-preload/index.ts'), formats: ['cjs'], fileName: () => 'index.cjs' },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [
      svelte({ configFile: resolve(root, 'svelte.config.js') }),
      // The dev server (npm start) injects CSS as <style> elements and reloads over its own WebSocket;
      // only there may the page's CSP allow them.
      {
        name: 'plugboard-dev-csp',
        apply: 'serve',
        transformIndexHtml: (html: string) =>
          html
            .replace("style-src 'self';", "style-src 'self' 'unsafe-inline';")
            .replace("connect-src 'none';", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*;"),
      },
    ],
    build: {
      outDir: resolve(root, 'out/renderer'),
      emptyOutDir: true,
      minify: true,
      rollupOptions: { input: resolve(root, 'src-renderer/index.html') },
    },
  },
});
