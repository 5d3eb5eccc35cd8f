import { chmod, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { build, type Plugin, type Rolldown } from 'vite';
import { callNames, eventNames } from './src-preload/contract';
import { WEB_PRELOAD_PATH } from './src-main/web/static-files';

const root = import.meta.dirname;

/**
 * The client uses little of undici (Agent, buildConnector, the dispatcher API's `request`, the redirect
 * interceptor), but undici's index loads all of it (fetch, mocks, WebSocket, cookies, caches…): 40–120 ms
 * of every `plugboard` command's start. In the build, `undici` resolves to just those modules of the same
 * undici, and dispatchers get the request methods exactly as undici's index gives them
 * (`Object.assign(Dispatcher.prototype, api)`); tests of the source run the full package. Same functions
 * either way.
 */
const SLIM_UNDICI = '\0plugboard:undici-slim';
const slimUndici: Plugin = {
  name: 'plugboard-slim-undici',
  enforce: 'pre',
  resolveId: (source) => (source === 'undici' ? SLIM_UNDICI : null),
  load: (id) =>
    id === SLIM_UNDICI
      ? [
          "import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';",
          "import api from 'undici/lib/api/index.js';",
          "import redirect from 'undici/lib/interceptor/redirect.js';",
          'Object.assign(Dispatcher.prototype, api);',
          'export const interceptors = { redirect };',
          "export { default as Agent } from 'undici/lib/dispatcher/agent.js';",
          "export { default as buildConnector } from 'undici/lib/core/connect.js';",
        ].join('\n')
      : null,
};

/**
 * undici's client loads its HTTP/2 half (and with it `node:http2`, about 10 ms) as it starts, though a
 * connection uses HTTP/2 only when `allowH2` is set, which Plugboard never does. In the build, the client
 * gets a function that loads that half on first use: the same code, evaluated only if called.
 */
const LAZY_H2 = '\0plugboard:undici-lazy-client-h2';
const lazyUndiciH2: Plugin = {
  name: 'plugboard-lazy-undici-h2',
  enforce: 'pre',
  resolveId: (source, importer) =>
    source === './client-h2.js' && /undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(importer ?? '')
      ? LAZY_H2
      : null,
  load: (id) =>
    id === LAZY_H2
      ? [
          'module.exports = function connectH2(client, socket) {',
          "  return require('undici/lib/dispatcher/client-h2.js')(client, socket);",
          '};',
        ].join('\n')
      : null,
};

/**
 * `conf` (with ajv) is needed only by commands that read the saved controllers, yet as an ES module it
 * would be evaluated at every start. In the build, `conf` is a class that loads it on first use.
 */
const LAZY_CONF = '\0plugboard:lazy-conf';
const lazyConf: Plugin = {
  name: 'plugboard-lazy-conf',
  enforce: 'pre',
  resolveId: (source, importer) => (source === 'conf' && importer !== LAZY_CONF ? LAZY_CONF : null),
  load: (id) =>
    id === LAZY_CONF
      ? [
          'export default class LazyConf {',
          '  constructor(options) {',
          "    const Conf = require('conf').default;",
          '    return new Conf(options);',
          '  }',
          '}',
        ].join('\n')
      : null,
};

/**
 * The Core loads mDNS discovery (bonjour-service) and the CSV import (csv-parse) with it, yet a command
 * that runs through a Core of its own (every `plugboard` command on one unit) never discovers nor imports:
 * about 40 ms of its start. In the build, each is a stand-in that loads the package on first use; an
 * `instanceof CsvError` asks the real class.
 */
const LAZY_CORE_DEPS: Record<string, string> = {
  'bonjour-service': [
    "import { createRequire } from 'node:module';",
    // Resolved when first used, from node_modules as before (a literal require would bundle it).
    'const load = () => createRequire(import.meta.url)(String("bonjour-service"));',
    'export class Bonjour {',
    '  constructor(...args) {',
    '    return new (load().Bonjour)(...args);',
    '  }',
    '}',
    'export default Bonjour;',
  ].join('\n'),
  'csv-parse/sync': [
    "import { createRequire } from 'node:module';",
    'const load = () => createRequire(import.meta.url)(String("csv-parse/sync"));',
    'export const parse = (...args) => load().parse(...args);',
    'export class CsvError {',
    '  static [Symbol.hasInstance](value) {',
    '    return value instanceof load().CsvError;',
    '  }',
    '}',
  ].join('\n'),
};
const lazyCoreDeps: Plugin = {
  name: 'plugboard-lazy-core-deps',
  enforce: 'pre',
  resolveId: (source, importer) =>
    source in LAZY_CORE_DEPS && !importer?.startsWith('\0plugboard:lazy:')
      ? `\0plugboard:lazy:${source}`
      : null,
  load: (id) =>
    id.startsWith('\0plugboard:lazy:') ? LAZY_CORE_DEPS[id.slice('\0plugboard:lazy:'.length)] : null,
};

/**
 * The preloads need the contract's names, not its valibot schemas (callNames is `Object.keys` of the
 * schemas, so importing it would bundle valibot). In a preload's build, src-preload/contract.ts is
 * replaced by the names this config reads from that same file, and `splitCallName`; a preload importing
 * anything else from it fails the build (a missing export).
 */
const CONTRACT = resolve(root, 'src-preload/contract.ts');
const contractNamesOnly: Plugin = {
  name: 'plugboard-contract-names-only',
  enforce: 'pre',
  load: (id) =>
    id === CONTRACT
      ? [
          `export const callNames = ${JSON.stringify(callNames)};`,
          `export const eventNames = ${JSON.stringify(eventNames)};`,
          'export function splitCallName(name) {',
          "  const slash = name.indexOf('/');",
          '  return [name.slice(0, slash), name.slice(slash + 1)];',
          '}',
        ].join('\n')
      : null,
};

/**
 * A page script of the web shell and the lab window (src-main/web/page/) as the page loads it: one
 * classic script, no imports (an IIFE), left readable (a few kB).
 */
async function buildPageScript(file: string, name: string): Promise<string> {
  const built = (await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [contractNamesOnly],
    build: {
      write: false,
      minify: false,
      target: 'es2022',
      lib: { entry: resolve(root, 'src-main/web/page', file), formats: ['iife'], name },
    },
  })) as Rolldown.RolldownOutput[];
  return built[0]!.output[0].code;
}

/**
 * The web shell's `window.plugboard` (src-main/web/page/web-preload.ts). Exported for
 * test/web/web-preload.test.ts, which runs exactly this.
 */
export function buildWebPreload(): Promise<string> {
  return buildPageScript('web-preload.ts', 'plugboardWebPreload');
}

/** The lab window's sign-in page's script (src-main/web/page/sign-in.ts). */
export function buildSignInScript(): Promise<string> {
  return buildPageScript('sign-in.ts', 'plugboardSignIn');
}

/**
 * Puts the page scripts beside the window's files, where the web shell and the lab service serve them
 * (WEB_PRELOAD_PATH; the sign-in page with its script and style, serve/api-window.ts).
 */
const webPreloadAsset: Plugin = {
  name: 'plugboard-web-preload',
  apply: 'build',
  generateBundle: async function () {
    this.emitFile({ type: 'asset', fileName: WEB_PRELOAD_PATH.slice(1), source: await buildWebPreload() });
    this.emitFile({ type: 'asset', fileName: 'plugboard-sign-in.js', source: await buildSignInScript() });
    for (const file of ['sign-in.html', 'sign-in.css'])
      this.emitFile({
        type: 'asset',
        fileName: file,
        source: await readFile(resolve(root, 'src-main/web/page', file), 'utf8'),
      });
  },
};

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The command line starts a Node process per call (target: ≤ 12× `curl --digest`), so the pure-JS
      // packages it loads are bundled and minified: one file read and parsed instead of hundreds.
      // The rest (keytar's native module, electron-store, discovery, ws) load from node_modules.
      minify: true,
      externalizeDeps: {
        exclude: [
          'commander',
          'conf',
          'digest-fetch',
          // The lab store's query layer: the Core imports it, and the packaged command runs with no
          // node_modules but keytar's.
          'kysely',
          'picocolors',
          'proper-lockfile',
          'undici',
          'valibot',
          // Stand-ins that load the package on first use (lazyCoreDeps); the package stays outside.
          'bonjour-service',
          'csv-parse',
        ],
      },
      rollupOptions: {
        // digest-fetch falls back to node-fetch only where there is no global fetch (not on Node 20+).
        external: ['node-fetch'],
        // index: the Electron shell. plugboard: the `plugboard` command (src-main/bin: the command line, or
        // `plugboard serve`, each imported only when asked for), run by Node (the package's `bin`) or by
        // the packaged app's Electron as Node; it shares chunks with index and never imports electron.
        input: {
          index: resolve(root, 'src-main/shell/main.ts'),
          plugboard: resolve(root, 'src-main/bin/plugboard.ts'),
          // The web shell (`npm run web`), run by Node from the build.
          web: resolve(root, 'src-main/web/main.ts'),
        },
        output: {
          banner: (chunk) => (chunk.name === 'plugboard' && chunk.isEntry ? '#!/usr/bin/env node' : ''),
        },
      },
    },
    plugins: [
      slimUndici,
      lazyUndiciH2,
      lazyConf,
      lazyCoreDeps,
      {
        name: 'plugboard-cli-executable',
        // `bin` targets must be executable for `./out/main/plugboard.js` and npm link.
        writeBundle: async (options, bundle) => {
          if ('plugboard.js' in bundle && options.dir)
            await chmod(resolve(options.dir, 'plugboard.js'), 0o755);
        },
      },
    ],
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
    plugins: [contractNamesOnly],
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [
      svelte({ configFile: resolve(root, 'svelte.config.js') }),
      webPreloadAsset,
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
