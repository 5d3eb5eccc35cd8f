import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWebPreload } from '../../electron.vite.config';
import { callNames, eventNames, type PlugboardApi, type Result } from '../../src-preload/contract';
import { RECONNECT_FIRST_MS, RECONNECT_MAX_MS, TOKEN_KEY } from '../../src-main/web/page/page-terms';
import { MAX_MESSAGE } from '../../src-main/web/socket-protocol';

/**
 * The page's script (page/web-preload.ts) as the build bundles it, run on its own, with a stand-in for
 * the browser's WebSocket and timers, so reconnects and their delays are stepped by hand. The e2e tests
 * run it in Chromium.
 */
let script: string;
beforeAll(async () => {
  script = await buildWebPreload();
});

class FakeSocket {
  static readonly OPEN = 1;
  readonly sent: { id: number; name: string; input: unknown }[] = [];
  readonly #listeners = new Map<string, ((event: { data?: string }) => void)[]>();

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  addEventListener(type: string, listener: (event: { data?: string }) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text) as { id: number; name: string; input: unknown });
  }

  #fire(type: string, event: { data?: string } = {}): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }

  open(): void {
    this.#fire('open');
  }

  close(): void {
    this.#fire('close');
  }

  answerRaw(data: string): void {
    this.#fire('message', { data });
  }

  answer(id: number, result: Result<unknown>): void {
    this.#fire('message', { data: JSON.stringify({ type: 'result', id, result }) });
  }
}

function page(search: string, stored: Record<string, string> = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  const storage = new Map(Object.entries(stored));
  const addresses: string[] = [];
  const errors: unknown[][] = [];
  const sandbox: Record<string, unknown> = {
    location: { search, pathname: '/', hash: '', protocol: 'http:', host: '127.0.0.1:4321' },
    history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => addresses.push(url) },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
    },
    WebSocket: class extends FakeSocket {
      constructor(url: string, protocols: string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    },
    setTimeout: (run: () => void, ms: number) => timers.push({ ms, run }),
    URLSearchParams,
    TextEncoder,
    console: { error: (...args: unknown[]) => errors.push(args) },
  };
  sandbox.window = sandbox;
  runInNewContext(script, sandbox);
  const api = sandbox.plugboard as PlugboardApi;
  /** Run the one pending reconnect timer; returns its delay. */
  const fireTimer = () => {
    expect(timers).toHaveLength(1);
    const timer = timers.shift()!;
    timer.run();
    return timer.ms;
  };
  const last = () => sockets[sockets.length - 1]!;
  return { api, sockets, storage, addresses, timers, errors, fireTimer, last };
}

const tick = () => new Promise((done) => setImmediate(done));

describe('the web page script', () => {
  it('is one classic script that imports nothing and carries no schema library', () => {
    expect(script).not.toMatch(/^\s*(import|export)\b/m);
    expect(script).not.toMatch(/\brequire\(|\bimport\(/);
    expect(script).not.toMatch(/valibot/i);
    expect(script.length).toBeLessThan(12_000);
  });

  it('offers every call and event of the contract, as the Electron preload does', async () => {
    const tab = page('?token=t');
    const api = tab.api as unknown as Record<string, Record<string, (input: unknown) => unknown>>;
    tab.last().open();
    for (const name of callNames) {
      const [domain, action] = name.split('/') as [string, string];
      void api[domain]![action]!({});
    }
    expect(tab.last().sent.map((m) => m.name)).toEqual(callNames);
    for (const name of eventNames) expect(typeof tab.api.on(name, () => undefined)).toBe('function');
    expect(() => tab.api.on('no/such' as never, () => undefined)).toThrow('Unknown event no/such');
    expect(Object.isFrozen(tab.api) && Object.isFrozen(tab.api.outlets)).toBe(true);
  });

  it('takes the token out of the address, keeps it in the tab, and offers it as a subprotocol', () => {
    const tab = page('?token=s3cret&view=outlets');
    expect(tab.addresses).toEqual(['/?view=outlets']);
    expect(tab.storage.get(TOKEN_KEY)).toBe('s3cret');
    expect(tab.sockets).toHaveLength(1);
    expect(tab.last().url).toBe('ws://127.0.0.1:4321/ws');
    expect(tab.last().protocols).toEqual(['plugboard.v1', 'plugboard.token.s3cret']);
  });

  it('after a reload (no token in the address) uses the one the tab kept', () => {
    const tab = page('', { [TOKEN_KEY]: 'kept' });
    expect(tab.addresses).toEqual([]);
    expect(tab.last().protocols).toEqual(['plugboard.v1', 'plugboard.token.kept']);
  });

  it('without a token opens no socket and says which address to open', async () => {
    const tab = page('');
    expect(tab.sockets).toHaveLength(0);
    expect(await tab.api.app.info({})).toMatchObject({
      ok: false,
      error: { code: 'UNREACHABLE', message: expect.stringMatching(/printed \(it ends in \?token=/) },
    });
  });

  it('reconnects by itself with a doubling delay, offering the token again each time', () => {
    const tab = page('?token=t');
    tab.last().open();
    tab.last().close();
    const delays: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      delays.push(tab.fireTimer());
      expect(tab.last().protocols).toEqual(['plugboard.v1', 'plugboard.token.t']);
      tab.last().close(); // the shell is still away
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(delays[0]).toBe(RECONNECT_FIRST_MS);
    expect(Math.max(...delays)).toBe(RECONNECT_MAX_MS);
    // Once back, the next loss starts from the first delay again.
    tab.fireTimer();
    tab.last().open();
    tab.last().close();
    expect(tab.fireTimer()).toBe(RECONNECT_FIRST_MS);
    expect(tab.sockets).toHaveLength(11);
  });

  it('answers calls in flight UNREACHABLE without resending them, then hands the page a fresh snapshot', async () => {
    const tab = page('?token=t');
    const first = tab.last();
    first.open();
    const switching = tab.api.outlets.set({ controllerId: 'c1', outlets: [1], on: true });
    expect(first.sent.map((m) => m.name)).toEqual(['outlets/set']);
    first.close();
    expect(await switching).toMatchObject({
      ok: false,
      error: { code: 'UNREACHABLE', message: expect.stringMatching(/may or may not have been carried out/) },
    });
    // While it waits to reconnect, calls answer at once rather than hang.
    expect(await tab.api.app.info({})).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } });

    const seen: string[] = [];
    tab.api.on('controllers/changed', (list) => seen.push(`controllers ${list.length}`));
    tab.api.on('state/changed', (state) => seen.push(`state ${state.id}`));
    tab.api.on('settings/changed', () => seen.push('settings'));
    tab.fireTimer();
    const second = tab.last();
    second.open();
    expect(second.sent.map((m) => m.name)).toEqual(['app/snapshot']);
    second.answer(second.sent[0]!.id, {
      ok: true,
      value: { info: {}, controllers: [{ id: 'c1' }], states: [{ id: 'c1' }], groups: [], settings: {} },
    });
    await tick();
    expect(seen).toEqual(['controllers 1', 'state c1', 'settings']);
  });

  it('answers BAD_INPUT for a call too large for the shell, and keeps its socket', async () => {
    const tab = page('?token=t');
    tab.last().open();
    const answer = await tab.api.controllers.add({
      name: 'x'.repeat(MAX_MESSAGE),
      url: 'http://127.0.0.1',
      auth: { kind: 'none' },
    } as never);
    expect(answer).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', message: /too large/ } });
    expect(tab.last().sent).toEqual([]);
    expect(tab.timers).toEqual([]);
    // Just under the limit still goes out.
    void tab.api.controllers.add({ name: 'x'.repeat(MAX_MESSAGE - 200) } as never);
    expect(tab.last().sent.map((m) => m.name)).toEqual(['controllers/add']);
  });

  it('delivers events to each listener until it stops listening, and a failing listener harms no other', () => {
    const tab = page('?token=t');
    const seen: string[] = [];
    const stop = tab.api.on('groups/changed', () => seen.push('first'));
    tab.api.on('groups/changed', () => {
      throw new Error('listener broke');
    });
    tab.api.on('groups/changed', () => seen.push('third'));
    const event = (name: string) =>
      tab.last().answerRaw(JSON.stringify({ type: 'event', name, payload: [] }));
    event('groups/changed');
    stop();
    event('groups/changed');
    expect(seen).toEqual(['first', 'third', 'third']);
    expect(tab.errors.map(([text]) => text)).toEqual([
      'A plugboard event listener failed',
      'A plugboard event listener failed',
    ]);
  });
});
