import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { callNames, type ControllerSummary, type Result } from '../../src-preload/contract';
import { startWebShell, type RunningWebShell } from '../../src-main/web/server';
import { WEB_PRELOAD_PATH } from '../../src-main/web/static-files';
import { controllerSummary, testCore, type TestCore } from './test-core';

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Opens a socket; resolves with it once open, or rejects with the HTTP status of a refusal. */
function openSocket(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => done(socket));
    socket.once('unexpected-response', (_req, res) => fail(new Error(`refused with ${res.statusCode}`)));
    socket.once('error', fail);
  });
}

class Client {
  #next = 1;
  readonly #pending = new Map<number, (result: Result<unknown>) => void>();
  readonly events: { name: string; payload: unknown }[] = [];
  readonly #eventWaiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        type: string;
        id?: number;
        result?: Result<unknown>;
        name?: string;
        payload?: unknown;
      };
      if (message.type === 'result') this.#pending.get(message.id!)?.(message.result!);
      if (message.type === 'event') {
        this.events.push({ name: message.name!, payload: message.payload });
        this.#eventWaiters.splice(0).forEach((wake) => wake());
      }
    });
  }

  call(name: string, input: unknown): Promise<Result<unknown>> {
    const id = this.#next++;
    return new Promise((done) => {
      this.#pending.set(id, done);
      this.socket.send(JSON.stringify({ type: 'call', id, name, input }));
    });
  }

  nextEvent(): Promise<void> {
    return new Promise((wake) => this.#eventWaiters.push(wake));
  }
}

let rendererDir: string;
let core: TestCore;
let shell: RunningWebShell;
let origin: string;
let host: string;
const logged: string[] = [];
const controllers: ControllerSummary[] = [
  controllerSummary('c1', 'Bench A', 0),
  controllerSummary('c2', 'Rack 7', 1),
];

beforeAll(async () => {
  // A small stand-in for out/renderer so these tests need no build; the browser test uses the real one.
  rendererDir = await mkdtemp(join(tmpdir(), 'plugboard-web-test-'));
  await mkdir(join(rendererDir, 'assets'));
  await writeFile(
    join(rendererDir, 'index.html'),
    `<!doctype html><html><head><meta charset="UTF-8" /><meta http-equiv="Content-Security-Policy" content="connect-src 'none'" /><script type="module" src="./assets/app.js"></script></head><body></body></html>`,
  );
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("app");');
  await writeFile(join(rendererDir, 'assets', 'app.css'), 'body { margin: 0 }');
  core = testCore({ controllers });
  shell = await startWebShell({ core, rendererDir, log: (message) => logged.push(message) });
  origin = new URL(shell.url).origin;
  host = new URL(shell.url).host;
});

afterAll(async () => {
  await shell?.close();
  await core?.dispose();
  await rm(rendererDir, { recursive: true, force: true });
});

describe('address and token', () => {
  it('prints a loopback URL carrying a fresh random token', async () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
    const other = await startWebShell({ core, rendererDir, log: () => undefined });
    try {
      expect(other.token).not.toBe(shell.token);
      expect(other.port).not.toBe(shell.port);
    } finally {
      await other.close();
    }
  });

  it('listens on 127.0.0.1 only', async () => {
    const tryConnect = (address: string) =>
      new Promise<string>((done) => {
        const socket = connect({ host: address, port: shell.port });
        socket.once('connect', () => {
          socket.destroy();
          done('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
      });
    expect(await tryConnect('127.0.0.1')).toBe('connected');
    expect(await tryConnect('127.0.0.2')).toBe('ECONNREFUSED');
  });
});

describe('HTTP', () => {
  it('refuses a request without the token', async () => {
    const answer = await get(shell.port, '/', { Host: host });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('<html');
    expect((await get(shell.port, '/assets/app.js', { Host: host })).status).toBe(403);
  });

  it('refuses a wrong token, a foreign Origin and a foreign Host even with the right token', async () => {
    expect((await get(shell.port, '/?token=not-the-token', { Host: host })).status).toBe(403);
    expect(
      (await get(shell.port, `/?token=${shell.token}`, { Host: host, Origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect(
      (await get(shell.port, `/?token=${shell.token}`, { Host: `evil.example:${shell.port}` })).status,
    ).toBe(403);
  });

  it('trades the token for a cookie and takes it out of the address', async () => {
    const first = await get(shell.port, `/?token=${shell.token}`, { Host: host });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = first.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toContain(shell.token);
    const cookie = setCookie.split(';')[0]!;

    const page = await get(shell.port, '/', { Host: host, Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<script src="${WEB_PRELOAD_PATH}"></script>`);
    // The preload comes before the app's module script, and the page's own meta CSP is gone.
    expect(page.body.indexOf(WEB_PRELOAD_PATH)).toBeLessThan(page.body.indexOf('assets/app.js'));
    expect(page.body).not.toMatch(/http-equiv/i);

    const asset = await get(shell.port, '/assets/app.js', { Host: host, Cookie: cookie, Origin: origin });
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log("app");');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');

    expect(
      (await get(shell.port, '/assets/app.js', { Host: host, Cookie: `${cookie.split('=')[0]}=forged` }))
        .status,
    ).toBe(403);
  });

  it('serves only files of the built renderer', async () => {
    const cookie = await sessionCookie();
    expect((await get(shell.port, '/nothing-here.js', { Host: host, Cookie: cookie })).status).toBe(404);
    expect((await get(shell.port, '/../package.json', { Host: host, Cookie: cookie })).status).toBe(404);
    expect(
      (await get(shell.port, '/assets/%2e%2e/%2e%2e/package.json', { Host: host, Cookie: cookie })).status,
    ).toBe(404);
  });

  it('sends the security headers on every answer, refusals included', async () => {
    for (const answer of [
      await get(shell.port, '/', { Host: host }),
      await get(shell.port, '/', { Host: host, Cookie: await sessionCookie() }),
    ]) {
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain(`connect-src 'self' ws://${host}`);
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toContain('unsafe-inline');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('serves a web preload with every contract call', async () => {
    const script = await get(shell.port, WEB_PRELOAD_PATH, { Host: host, Cookie: await sessionCookie() });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const name of callNames) expect(script.body).toContain(JSON.stringify(name));
  });
});

describe('WebSocket bridge', () => {
  const socketUrl = () => `ws://${host}/ws?token=${shell.token}`;

  it('answers app/info and controllers/list from the Core', async () => {
    const client = new Client(await openSocket(socketUrl(), { Origin: origin }));
    try {
      const info = await client.call('app/info', {});
      expect(info).toEqual({
        ok: true,
        value: expect.objectContaining({ name: 'Plugboard', version: '0.1.0-test', shell: 'test' }),
      });
      expect(await client.call('controllers/list', {})).toEqual({ ok: true, value: controllers });
    } finally {
      client.socket.close();
    }
  });

  it('accepts the cookie instead of the query token', async () => {
    const client = new Client(
      await openSocket(`ws://${host}/ws`, { Origin: origin, Cookie: await sessionCookie() }),
    );
    try {
      expect(await client.call('controllers/list', {})).toMatchObject({ ok: true });
    } finally {
      client.socket.close();
    }
  });

  it('answers bad input and unknown calls with BAD_INPUT, and keeps concurrent answers apart', async () => {
    const client = new Client(await openSocket(socketUrl(), { Origin: origin }));
    try {
      const [bad, unknown, info] = await Promise.all([
        client.call('outlets/set', { controllerId: 'c1', outlets: [0], on: true }),
        client.call('outlets/explode', {}),
        client.call('app/info', {}),
      ]);
      expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
      expect(bad.ok === false && bad.error.message).toMatch(/outlets/);
      expect(unknown).toMatchObject({
        ok: false,
        error: { code: 'BAD_INPUT', message: expect.stringContaining('outlets/explode') },
      });
      expect(info).toMatchObject({ ok: true, value: { name: 'Plugboard' } });
    } finally {
      client.socket.close();
    }
  });

  it('pushes Core events to every open socket', async () => {
    const a = new Client(await openSocket(socketUrl(), { Origin: origin }));
    const b = new Client(await openSocket(socketUrl(), { Origin: origin }));
    try {
      const arrived = Promise.all([a.nextEvent(), b.nextEvent()]);
      core.emit('controllers/changed', controllers.slice(0, 1));
      await arrived;
      for (const client of [a, b])
        expect(client.events).toEqual([{ name: 'controllers/changed', payload: controllers.slice(0, 1) }]);
    } finally {
      a.socket.close();
      b.socket.close();
    }
  });

  it('refuses upgrades without the token, with a wrong one, or from another Origin', async () => {
    await expect(openSocket(`ws://${host}/ws`, { Origin: origin })).rejects.toThrow('refused with 403');
    await expect(openSocket(`ws://${host}/ws?token=wrong`, { Origin: origin })).rejects.toThrow(
      'refused with 403',
    );
    await expect(openSocket(socketUrl(), { Origin: 'http://evil.example' })).rejects.toThrow(
      'refused with 403',
    );
    await expect(openSocket(socketUrl(), { Origin: `http://localhost:${shell.port}` })).rejects.toThrow(
      'refused with 403',
    );
    await expect(openSocket(socketUrl(), {})).rejects.toThrow('refused with 403');
    await expect(
      openSocket(`ws://${host}/elsewhere?token=${shell.token}`, { Origin: origin }),
    ).rejects.toThrow('refused with 403');
    expect(logged.some((line) => line.includes('foreign Origin'))).toBe(true);
    expect(logged.join('\n')).not.toContain(shell.token);
  });

  it('closes the socket on a message that is not a call', async () => {
    const socket = await openSocket(socketUrl(), { Origin: origin });
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.send('{"hello": "there"}');
    expect(await closed).toBe(1008);
  });
});

describe('close', () => {
  it('stops listening and ends open sockets', async () => {
    const running = await startWebShell({ core, rendererDir, log: () => undefined });
    const socket = await openSocket(`ws://127.0.0.1:${running.port}/ws?token=${running.token}`, {
      Origin: `http://127.0.0.1:${running.port}`,
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    await running.close();
    await closed;
    await expect(get(running.port, '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

async function sessionCookie(): Promise<string> {
  const first = await get(shell.port, `/?token=${shell.token}`, { Host: host });
  return first.headers['set-cookie']![0]!.split(';')[0]!;
}
