/**
 * The built preload as a sandboxed Electron renderer loads it: one CommonJS file whose only `require`
 * is `electron` (a sandboxed preload's `require` knows nothing but electron, events, timers and url).
 *
 * Reads out/preload/index.cjs as built by `npx electron-vite build` — `npm test` builds before it runs
 * vitest; this test does not build (a build here would empty out/renderer under the other browser tests).
 * It refuses a preload older than its sources, so a stale build cannot pass it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { callNames } from '../../src-preload/contract';

const root = resolve(import.meta.dirname, '..', '..');
const outDir = join(root, 'out', 'preload');
const built = join(outDir, 'index.cjs');
const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url']);

function sourcesNewerThan(file: string): string[] {
  const sources = [
    join(root, 'electron.vite.config.ts'),
    ...readdirSync(join(root, 'src-preload')).map((name) => join(root, 'src-preload', name)),
  ];
  const builtAt = statSync(file).mtimeMs;
  return sources.filter((source) => statSync(source).mtimeMs > builtAt);
}

function readBuilt(): string {
  if (!existsSync(built))
    throw new Error(`${built} is missing: run \`npx electron-vite build\` first (\`npm test\` does).`);
  const stale = sourcesNewerThan(built);
  if (stale.length > 0)
    throw new Error(`${built} is older than ${stale.join(', ')}: run \`npx electron-vite build\` again.`);
  return readFileSync(built, 'utf8');
}

describe('The built preload', () => {
  it('is one file whose only require is electron', () => {
    const source = readBuilt();
    expect(readdirSync(outDir)).toEqual(['index.cjs']);
    const required = [...source.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(source).not.toMatch(/\bimport\s*\(/);
  });

  it('runs with a sandboxed require and exposes window.plugboard with every call of the contract', () => {
    const source = readBuilt();
    const exposed: Record<string, unknown> = {};
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
      ipcRenderer: { invoke: () => Promise.resolve(), on: () => undefined, removeListener: () => undefined },
    };
    const sandboxRequire = (name: string) => {
      if (!SANDBOX_MODULES.has(name)) throw new Error(`module not found: ${name}`);
      if (name !== 'electron') throw new Error(`this check provides only electron, not ${name}`);
      return electron;
    };
    const module = { exports: {} };
    runInNewContext(`(function (require, module, exports) {\n${source}\n})`, {}, { filename: built })(
      sandboxRequire,
      module,
      module.exports,
    );
    const api = exposed['plugboard'] as Record<string, Record<string, unknown>>;
    expect(api).toBeDefined();
    for (const name of callNames) {
      const [domain, action] = name.split('/') as [string, string];
      expect(typeof api[domain]?.[action], name).toBe('function');
    }
    expect(typeof api['on']).toBe('function');
  });
});
