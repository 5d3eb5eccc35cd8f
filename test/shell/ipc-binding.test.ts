import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { callNames, type Handlers } from '../../src-preload/contract';
import { createCore, MemoryStore } from '../../src-main/core/index';
import { resolveAppPage } from '../../src-main/shell/app-page';
import {
  bindIpc,
  createIpcDispatcher,
  RefusedSenderError,
  type InvokeEventLike,
} from '../../src-main/shell/ipc-binding';

const mainDir = join('/opt', 'Plugboard', 'resources', 'app', 'out', 'main');
const page = resolveAppPage(mainDir);
const appUrl = pathToFileURL(join(mainDir, '..', 'renderer', 'index.html')).href;

/** A fake IpcMainInvokeEvent: only the sender frame matters to the binding. */
function from(url: string, parent: unknown = null): InvokeEventLike {
  return { senderFrame: { url, parent } };
}

/** The real Core's handlers, counting how often any of them runs. */
function countedHandlers() {
  const core = createCore({ shell: 'electron', version: '1.2.3', store: new MemoryStore() });
  const runs: string[] = [];
  const handlers = Object.fromEntries(
    callNames.map((name) => [
      name,
      (input: never) => (runs.push(name), (core.handlers[name] as (input: never) => Promise<unknown>)(input)),
    ]),
  ) as unknown as Handlers;
  return { handlers, runs };
}

function setup() {
  const { handlers, runs } = countedHandlers();
  const logged: string[] = [];
  const dispatcher = createIpcDispatcher({
    handlers,
    isAppUrl: page.isAppUrl,
    log: (message) => logged.push(message),
  });
  return { dispatcher, runs, logged };
}

describe('the ipcMain dispatcher', () => {
  it('answers a valid call from the app page with the Core result', async () => {
    const { dispatcher, runs } = setup();
    expect(await dispatcher(from(appUrl), 'app/info', {})).toEqual({
      ok: true,
      value: {
        name: 'Plugboard',
        version: '1.2.3',
        shell: 'electron',
        platform: process.platform,
        secrets: 'session',
      },
    });
    expect(await dispatcher(from(`${appUrl}#/controllers`), 'controllers/list', {})).toEqual({
      ok: true,
      value: [],
    });
    expect(runs).toEqual(['app/info', 'controllers/list']);
  });

  it('answers invalid input with BAD_INPUT naming the field, without running the handler', async () => {
    const { dispatcher, runs } = setup();
    const result = await dispatcher(from(appUrl), 'outlets/cycle', { controllerId: 'c1', outlet: 0 });
    expect(result).toEqual({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/outlet.*numbered from 1/) },
    });
    const extra = await dispatcher(from(appUrl), 'app/info', { sneaky: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(runs).toEqual([]);
  });

  it('drops a call from a foreign page: rejected, logged, handler never runs', async () => {
    const { dispatcher, runs, logged } = setup();
    await expect(
      dispatcher(from('https://evil.example/page?secret=1'), 'app/info', {}),
    ).rejects.toBeInstanceOf(RefusedSenderError);
    await expect(dispatcher(from('file:///tmp/other/index.html'), 'app/info', {})).rejects.toThrow(
      /not the app's own page/,
    );
    expect(runs).toEqual([]);
    expect(logged[0]).toBe(
      "Dropped IPC call app/info: the sender https://evil.example/page is not the app's own page.",
    );
    expect(logged.join('\n')).not.toContain('secret');
  });

  it('drops a call from a subframe of the app page', async () => {
    const { dispatcher, runs, logged } = setup();
    await expect(dispatcher(from(appUrl, { url: appUrl }), 'controllers/list', {})).rejects.toThrow(
      /subframe/,
    );
    expect(runs).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^Dropped IPC call controllers\/list: the sender is a subframe/);
  });

  it('drops a call whose frame is gone', async () => {
    const { dispatcher, runs } = setup();
    await expect(dispatcher({ senderFrame: null }, 'app/info', {})).rejects.toThrow(/frame is gone/);
    expect(runs).toEqual([]);
  });

  it('accepts pages of the dev server, and only those, in development', async () => {
    const dev = resolveAppPage(mainDir, 'http://localhost:5173/');
    const { handlers } = countedHandlers();
    const dispatcher = createIpcDispatcher({ handlers, isAppUrl: dev.isAppUrl, log: () => undefined });
    expect(await dispatcher(from('http://localhost:5173/index.html'), 'app/info', {})).toMatchObject({
      ok: true,
    });
    await expect(dispatcher(from('http://localhost:5174/'), 'app/info', {})).rejects.toThrow(
      RefusedSenderError,
    );
    await expect(dispatcher(from(appUrl), 'app/info', {})).rejects.toThrow(RefusedSenderError);
  });
});

describe('bindIpc', () => {
  it('registers one handler per contract call, each going through the sender check, and removes them all', async () => {
    const registered = new Map<string, (event: InvokeEventLike, input: unknown) => Promise<unknown>>();
    const ipcMain = {
      handle: (name: string, listener: (event: InvokeEventLike, input: unknown) => Promise<unknown>) =>
        void registered.set(name, listener),
      removeHandler: (name: string) => void registered.delete(name),
    };
    const { handlers, runs } = countedHandlers();
    const unbind = bindIpc(ipcMain as never, { handlers, isAppUrl: page.isAppUrl, log: () => undefined });
    expect([...registered.keys()].sort()).toEqual([...callNames].sort());
    expect(await registered.get('controllers/list')!(from(appUrl), {})).toEqual({ ok: true, value: [] });
    await expect(registered.get('controllers/list')!(from('https://evil.example/'), {})).rejects.toThrow(
      RefusedSenderError,
    );
    expect(runs).toEqual(['controllers/list']);
    unbind();
    expect(registered.size).toBe(0);
  });
});
