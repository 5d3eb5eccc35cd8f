/**
 * The window's page script (page/web-preload.ts, as the build bundles it) on a lab's service: the page
 * marked as a lab's takes the tab's signed-in session instead of a token, opens /api/v1/window with it,
 * and sends the tab to /sign-in (keeping its place) when it has none, when the socket closes because the
 * session ended, or when a refused socket's session is one the service says has ended; a service that is
 * merely away is tried again. Run on its own with stand-ins for the browser; the e2e test runs it in
 * Chromium against a real service.
 */
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWebPreload } from '../../electron.vite.config';
import { RETURN_KEY, SESSION_KEY } from '../../src-main/web/page/page-terms';
import { SESSION_ENDED_CLOSE } from '../../src-main/web/socket-protocol';

let script: string;
beforeAll(async () => {
  script = await buildWebPreload();
});

class FakeSocket {
  readonly #listeners = new Map<string, ((event: { code?: number }) => void)[]>();
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  addEventListener(type: string, listener: (event: { code?: number }) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  send(): void {}
  fire(type: string, event: { code?: number } = {}): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

function labPage(options: { stored?: Record<string, string>; status?: () => Promise<{ status: number }> }) {
  const sockets: FakeSocket[] = [];
  const timers: number[] = [];
  const replaced: string[] = [];
  const fetched: { url: string; authorization: string | undefined }[] = [];
  const storage = new Map(Object.entries(options.stored ?? {}));
  const sandbox: Record<string, unknown> = {
    location: {
      search: '',
      pathname: '/',
      hash: '#/local/bench-a/outlets',
      protocol: 'https:',
      host: 'lab.example:16422',
      replace: (url: string) => replaced.push(url),
    },
    document: {
      querySelector: (selector: string) =>
        selector === 'meta[name="plugboard-window"]' ? { getAttribute: () => 'lab' } : null,
    },
    history: { state: null, replaceState: () => undefined },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    },
    fetch: (url: string, init: { headers: Record<string, string> }) => {
      fetched.push({ url, authorization: init.headers.Authorization });
      return (options.status ?? (() => Promise.resolve({ status: 200 })))();
    },
    WebSocket: class extends FakeSocket {
      constructor(url: string, protocols: string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    },
    setTimeout: (_run: () => void, ms: number) => timers.push(ms),
    URLSearchParams,
    TextEncoder,
    console,
  };
  sandbox.window = sandbox;
  runInNewContext(script, sandbox);
  return { sockets, timers, replaced, fetched, storage };
}

const tick = () => new Promise((done) => setImmediate(done));

describe("the window's page script on a lab's service", () => {
  it('opens /api/v1/window with the tab’s session as the token subprotocol', () => {
    const tab = labPage({ stored: { [SESSION_KEY]: 'pbs_alice' } });
    expect(tab.sockets).toHaveLength(1);
    expect(tab.sockets[0]!.url).toBe('wss://lab.example:16422/api/v1/window');
    expect(tab.sockets[0]!.protocols).toEqual(['plugboard.v1', 'plugboard.token.pbs_alice']);
    expect(tab.replaced).toEqual([]);
  });

  it('without a session opens no socket and goes to sign in, keeping its place', () => {
    const tab = labPage({});
    expect(tab.sockets).toHaveLength(0);
    expect(tab.replaced).toEqual(['/sign-in']);
    expect(tab.storage.get(RETURN_KEY)).toBe('#/local/bench-a/outlets');
  });

  it('goes to sign in when the socket closes because the session ended, forgetting it', () => {
    const tab = labPage({ stored: { [SESSION_KEY]: 'pbs_alice' } });
    tab.sockets[0]!.fire('open');
    tab.sockets[0]!.fire('close', { code: SESSION_ENDED_CLOSE });
    expect(tab.replaced).toEqual(['/sign-in']);
    expect(tab.storage.has(SESSION_KEY)).toBe(false);
    expect(tab.timers).toEqual([]);
  });

  it('asks the service why a socket was refused: an ended session goes to sign in', async () => {
    const tab = labPage({
      stored: { [SESSION_KEY]: 'pbs_old' },
      status: () => Promise.resolve({ status: 401 }),
    });
    tab.sockets[0]!.fire('close', { code: 1006 });
    await tick();
    expect(tab.fetched).toEqual([{ url: '/api/v1/status', authorization: 'Bearer pbs_old' }]);
    expect(tab.replaced).toEqual(['/sign-in']);
    expect(tab.timers).toEqual([]);
  });

  it('a service that is away (or answers) is tried again, the session kept', async () => {
    for (const status of [
      () => Promise.reject(new Error('offline')),
      () => Promise.resolve({ status: 200 }),
    ]) {
      const tab = labPage({ stored: { [SESSION_KEY]: 'pbs_alice' }, status });
      tab.sockets[0]!.fire('close', { code: 1006 });
      await tick();
      expect(tab.replaced).toEqual([]);
      expect(tab.timers).toEqual([250]);
      expect(tab.storage.get(SESSION_KEY)).toBe('pbs_alice');
    }
    // A socket that was open and closes for another reason (a restart) is reopened without asking.
    const tab = labPage({ stored: { [SESSION_KEY]: 'pbs_alice' } });
    tab.sockets[0]!.fire('open');
    tab.sockets[0]!.fire('close', { code: 1001 });
    expect(tab.fetched).toEqual([]);
    expect(tab.timers).toEqual([250]);
  });
});
