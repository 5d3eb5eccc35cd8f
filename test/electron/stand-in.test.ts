/**
 * The stand-in's own rules, on a minimal fixture app (fixtures/sandbox-app): a sandboxed preload's
 * require knows only electron, events, timers and url, and what crosses the context bridge is a copy.
 * These are what make the desktop-app tests mean something: the unbundled preload of version 0.1
 * fails here exactly as it did in Electron.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesktopApp, until, type DesktopApp } from './desktop-app';

const fixture = join(import.meta.dirname, 'fixtures', 'sandbox-app');
const fixturePage = pathToFileURL(join(fixture, 'page.html')).href;

let scratch: string;
const running: DesktopApp[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'plugboard-stand-in-rules-'));
});
afterAll(async () => {
  for (const app of running) await app.close();
  await rm(scratch, { recursive: true, force: true });
});

async function withPreload(name: string, source: string): Promise<DesktopApp> {
  const preload = join(scratch, `${name}.cjs`);
  await writeFile(preload, source);
  const home = join(scratch, `home-${name}`);
  const app = await startDesktopApp({
    home,
    configDir: join(home, 'config'),
    appDir: fixture,
    env: { STANDIN_FIXTURE_PRELOAD: preload },
  });
  running.push(app);
  return app;
}

describe('The Electron stand-in', () => {
  it('gives a sandboxed preload a require that knows only electron, events, timers and url', async () => {
    const app = await withPreload(
      'unbundled',
      `"use strict";
const { contextBridge } = require("electron");
const { EventEmitter } = require("events");
const { setTimeout: later } = require("timers");
const { URL: Address } = require("url");
contextBridge.exposeInMainWorld("before", { kinds: [typeof EventEmitter, typeof later, typeof Address] });
const v = require("valibot");
contextBridge.exposeInMainWorld("api", { version: () => String(v) });
`,
    );
    const page = await app.page(fixturePage);
    const errors = await until(async () => {
      const reported = (await app.state()).preloadErrors;
      return reported.length > 0 ? reported : null;
    }, 'a preload error');
    expect(errors).toEqual(['module not found: valibot']);
    expect(await page.evaluate(() => (window as unknown as { before: unknown }).before)).toEqual({
      kinds: ['function', 'function', 'function'],
    });
    expect(await page.evaluate(() => 'api' in window)).toBe(false);
  });

  it('copies what crosses the context bridge: no identity or prototype survives, functions are proxied', async () => {
    const app = await withPreload(
      'bridge',
      `"use strict";
const { contextBridge } = require("electron");
class Reading { constructor(value) { this.value = value; } twice() { return this.value * 2; } }
let kept = null;
contextBridge.exposeInMainWorld("api", {
  keep: (x) => { kept = x; return x; },
  isKept: (x) => x === kept,
  keptProto: () => Object.getPrototypeOf(kept) === Object.prototype,
  reading: () => new Reading(3),
  later: async () => ({ when: "later" }),
  call: (fn) => fn(2),
});
`,
    );
    const page = await app.page(fixturePage);
    const seen = await page.evaluate(async () => {
      type Api = Record<string, (...args: unknown[]) => unknown>;
      const api = (window as unknown as { api: Api }).api;
      class Mine {
        readonly mine = true;
      }
      const object = new Mine();
      const back = api['keep']!(object);
      const reading = api['reading']!() as object;
      return {
        sameObjectBack: back === object,
        sameObjectInPreload: api['isKept']!(object),
        preloadSawPlainObject: api['keptProto']!(),
        copy: back,
        readingIsPlain: Object.getPrototypeOf(reading) === Object.prototype,
        reading,
        later: await (api['later']!() as Promise<unknown>),
        proxiedCallback: api['call']!((n: number) => n + 1),
      };
    });
    expect(seen).toEqual({
      sameObjectBack: false,
      sameObjectInPreload: false,
      preloadSawPlainObject: true,
      copy: { mine: true },
      readingIsPlain: true,
      reading: { value: 3 },
      later: { when: 'later' },
      proxiedCallback: 3,
    });
    expect((await app.state()).preloadErrors).toEqual([]);
  });
});
