import { connect } from 'node:net';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNames, type ControllerSummary } from '../../src-preload/contract';
import { startWebShell, type RunningWebShell } from '../../src-main/web/server';
import { WEB_PRELOAD_PATH } from '../../src-main/web/static-files';
import { controllerSummary, testCore, type TestCore } from './test-core';
import { Client, get, openSocket, standInRenderer, tokenProtocols } from './web-helpers';

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
  rendererDir = await standInRenderer();
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
  it('serves the built window without the token, and nothing in it is secret', async () => {
    const page = await get(shell.port, '/', { Host: host });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`<script src="${WEB_PRELOAD_PATH}"></script>`);
    // The preload comes before the app's module script, and the page's own meta CSP is gone.
    expect(page.body.indexOf(WEB_PRELOAD_PATH)).toBeLessThan(page.body.indexOf('assets/app.js'));
    expect(page.body).not.toMatch(/http-equiv/i);
    const asset = await get(shell.port, '/assets/app.js', { Host: host, Origin: origin });
    expect(asset.status).toBe(200);
    expect(asset.body).toBe('console.log("app");');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const path of ['/', `/?token=${shell.token}`, WEB_PRELOAD_PATH, '/assets/app.js']) {
      const answer = await get(shell.port, path, { Host: host });
      expect(answer.body).not.toContain(shell.token);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('serves the tokened address as it is, with no cookie and no redirect: the page takes the token out', async () => {
    const page = await get(shell.port, `/?token=${shell.token}`, { Host: host });
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers.location).toBeUndefined();
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding), token or not', async () => {
    expect((await get(shell.port, '/', { Host: host, Origin: 'http://evil.example' })).status).toBe(403);
    expect(
      (await get(shell.port, `/?token=${shell.token}`, { Host: host, Origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect((await get(shell.port, '/', { Host: `evil.example:${shell.port}` })).status).toBe(403);
    expect(
      (await get(shell.port, `/assets/app.js?token=${shell.token}`, { Host: `localhost:${shell.port}` }))
        .status,
    ).toBe(403);
  });

  it('serves only files of the built renderer', async () => {
    expect((await get(shell.port, '/nothing-here.js', { Host: host })).status).toBe(404);
    expect((await get(shell.port, '/../package.json', { Host: host })).status).toBe(404);
    expect((await get(shell.port, '/assets/%2e%2e/%2e%2e/package.json', { Host: host })).status).toBe(404);
  });

  it('sends the security headers on every answer, refusals included', async () => {
    for (const answer of [
      await get(shell.port, '/', { Host: host }),
      await get(shell.port, '/', { Host: 'evil.example' }),
    ]) {
      const csp = String(answer.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      // The page may connect to its own socket and nowhere else.
      expect(csp).toContain(`connect-src ws://${host};`);
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).not.toContain('unsafe-inline');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('serves a web preload with every contract call', async () => {
    const script = await get(shell.port, WEB_PRELOAD_PATH, { Host: host });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    for (const name of callNames) expect(script.body).toContain(JSON.stringify(name));
  });
});

describe('WebSocket bridge', () => {
  const socketUrl = () => `ws://${host}/ws`;
  const protocols = () => tokenProtocols(shell.token);

  it('answers app/info and controllers/list from the Core', async () => {
    const client = new Client(await openSocket(socketUrl(), { Origin: origin }, protocols()));
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

  it('answers bad input and unknown calls with BAD_INPUT, and keeps concurrent answers apart', async () => {
    const client = new Client(await openSocket(socketUrl(), { Origin: origin }, protocols()));
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
    const a = new Client(await openSocket(socketUrl(), { Origin: origin }, protocols()));
    const b = new Client(await openSocket(socketUrl(), { Origin: origin }, protocols()));
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
    await expect(openSocket(socketUrl(), { Origin: origin })).rejects.toThrow('refused with 403');
    await expect(openSocket(socketUrl(), { Origin: origin }, tokenProtocols('wrong'))).rejects.toThrow(
      'refused with 403',
    );
    await expect(openSocket(socketUrl(), { Origin: 'http://evil.example' }, protocols())).rejects.toThrow(
      'refused with 403',
    );
    await expect(
      openSocket(socketUrl(), { Origin: `http://localhost:${shell.port}` }, protocols()),
    ).rejects.toThrow('refused with 403');
    await expect(openSocket(socketUrl(), {}, protocols())).rejects.toThrow('refused with 403');
    await expect(openSocket(`ws://${host}/elsewhere`, { Origin: origin }, protocols())).rejects.toThrow(
      'refused with 403',
    );
    expect(logged.some((line) => line.includes('foreign Origin'))).toBe(true);
    expect(logged.join('\n')).not.toContain(shell.token);
  });

  it('answers with the protocol alone, never echoing the token', async () => {
    const socket = await openSocket(socketUrl(), { Origin: origin }, protocols());
    try {
      expect(socket.protocol).toBe('plugboard.v1');
    } finally {
      socket.close();
    }
  });

  it('closes the socket on a message that is not a call', async () => {
    const socket = await openSocket(socketUrl(), { Origin: origin }, protocols());
    const closed = new Promise<number>((done) => socket.once('close', (code) => done(code)));
    socket.send('{"hello": "there"}');
    expect(await closed).toBe(1008);
  });
});

describe('close', () => {
  it('stops listening and ends open sockets', async () => {
    const running = await startWebShell({ core, rendererDir, log: () => undefined });
    const socket = await openSocket(
      `ws://127.0.0.1:${running.port}/ws`,
      { Origin: `http://127.0.0.1:${running.port}` },
      tokenProtocols(running.token),
    );
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    await running.close();
    await closed;
    await expect(get(running.port, '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
