/**
 * The web window on the `api` listener (--web-window), in process: its pages on the listener's own
 * origin, never a cookie; its socket /api/v1/window opened only by a live session offered as the token
 * subprotocol, from the listener's own Origin, acting as the account; a session that ends (expired,
 * revoked) shuts the socket, by the next call or at once when an administrator revokes it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Caller } from '../../src-preload/model';
import { SESSION_IDLE_MS } from '../../src-main/core/index';
import { SESSION_ENDED_CLOSE } from '../../src-main/web/socket-protocol';
import { FakeClock } from '../core/fake-clock';
import { addController, emulator, newCore } from '../core/harness';
import { ApiServices } from './api-services';
import { standInRenderer } from '../web/web-helpers';

const PASSWORD = 'a long enough password';
let dir: string;
let rendererDir: string;
const services = new ApiServices();
const sockets: WebSocket[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-api-window-'));
  rendererDir = await standInRenderer();
  await writeFile(join(rendererDir, 'sign-in.html'), '<!doctype html><title>Sign in</title>');
});
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await services.close();
  await rm(dir, { recursive: true, force: true });
  await rm(rendererDir, { recursive: true, force: true });
});

async function service(webWindow = true) {
  const records = await services.records(dir);
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 9));
  const h = newCore({ records, clock });
  const admin = h.core.handlersAs({ door: 'cli', who: 'root', role: 'admin' });
  await admin['accounts/add']({ name: 'ada', role: 'observer', scope: { kind: 'all' }, password: PASSWORD });
  await admin['accounts/add']({ name: 'bob', role: 'operator', scope: { kind: 'all' }, password: PASSWORD });
  const { origin, listener } = await services.listen(h.core, { webWindow, rendererDir });
  const session = async (name: string) => {
    const response = await fetch(`${origin}/api/v1/sign-in`, {
      method: 'POST',
      body: JSON.stringify({ name, password: PASSWORD }),
    });
    expect(response.headers.get('set-cookie')).toBeNull();
    return ((await response.json()) as { token: string }).token;
  };
  return { h, clock, admin, origin, listener, session };
}

interface Opened {
  ws: WebSocket;
  call(name: string, input?: unknown): Promise<{ ok: boolean; error?: { code: string; message: string } }>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Open the window's socket; resolves with it once open, or rejects with the refusal's HTTP status. */
function openWindow(
  origin: string,
  protocols: string[],
  headers: { origin?: string; host?: string } = { origin },
): Promise<Opened> {
  const url = `${origin.replace(/^http/, 'ws')}/api/v1/window`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, {
      ...(headers.origin ? { origin: headers.origin } : {}),
      ...(headers.host ? { headers: { Host: headers.host } } : {}),
    });
    sockets.push(ws);
    ws.on('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error('refused'), { status: res.statusCode })),
    );
    ws.on('error', () => undefined);
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    let next = 1;
    const waiting = new Map<number, (result: never) => void>();
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id: number; result: never };
      if (message.type === 'result') waiting.get(message.id)?.(message.result);
    });
    ws.on('open', () =>
      resolve({
        ws,
        closed,
        call: (name, input = {}) =>
          new Promise((done) => {
            const id = next++;
            waiting.set(id, done);
            ws.send(JSON.stringify({ type: 'call', id, name, input }));
          }),
      }),
    );
  });
}

const refusal = (opening: Promise<unknown>) =>
  opening.then(
    () => 'opened',
    (error: { status?: number }) => error.status,
  );

function get(origin: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(new URL(path, origin), { headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

const session = (secret: string) => ['plugboard.v1', `plugboard.token.${secret}`];

describe('the web window on the api listener', () => {
  it('serves the window marked as a lab’s and the sign-in page, with its policy and no cookie', async () => {
    const { origin, listener } = await service();
    expect(listener.lines).toContain(`web window: ${origin}/ (people sign in with their accounts)`);
    const page = await get(origin, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain(
      '<meta name="plugboard-window" content="lab"><script src="/plugboard-web-preload.js"></script>',
    );
    const host = new URL(origin).host;
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://${host}`);
    expect((await get(origin, '/sign-in')).body).toContain('<title>Sign in</title>');
    expect((await get(origin, '/sign-out')).status).toBe(200);
    for (const path of ['/', '/sign-in', '/plugboard-web-preload.js', '/api/v1/status'])
      expect((await get(origin, path)).headers['set-cookie']).toBeUndefined();
    // Another site's page cannot load it as its own, and the JSON API is still the API.
    expect((await get(origin, '/', { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(origin, '/nothing-here')).status).toBe(404);
  });

  it('opens the socket with a session only, from its own Origin, and acts as the account', async () => {
    const { h, origin, session: signIn } = await service();
    await addController(h, await emulator(), { name: 'Bench A' });
    expect(await refusal(openWindow(origin, ['plugboard.v1']))).toBe(401);
    expect(await refusal(openWindow(origin, session('pbs_not-a-session')))).toBe(401);
    const bob = await signIn('bob');
    expect(await refusal(openWindow(origin, session(bob), { origin: 'https://evil.example' }))).toBe(403);
    expect(await refusal(openWindow(origin, session(bob), {}))).toBe(403);
    expect(
      await refusal(
        openWindow(origin, session(bob), { origin: 'http://rebound.example', host: 'rebound.example' }),
      ),
    ).toBe(403);

    const seen: Caller[] = [];
    const handlersAs = h.core.handlersAs.bind(h.core);
    h.core.handlersAs = (caller) => (seen.push(caller as Caller), handlersAs(caller));
    const window = await openWindow(origin, session(bob));
    expect(window.ws.protocol).toBe('plugboard.v1');
    expect(await window.call('app/whoami')).toMatchObject({ ok: true, value: { who: 'bob', door: 'web' } });
    expect(seen).toContainEqual({ door: 'web', who: 'bob', role: 'operator', scope: { kind: 'all' } });

    const ada = await openWindow(origin, session(await signIn('ada')));
    const list = (await ada.call('controllers/list')) as { ok: true; value: { id: string }[] };
    const refused = await ada.call('outlets/set', {
      controllerId: list.value[0]!.id,
      outlets: [1],
      on: true,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'ada is an observer: it may read, not switch outlets.' },
    });
  });

  it('an expired session is refused at the door, and closes an open socket at its next call', async () => {
    const { clock, origin, session: signIn } = await service();
    const early = await signIn('ada');
    const open = await openWindow(origin, session(early));
    await clock.advance(SESSION_IDLE_MS + 1);
    expect(await refusal(openWindow(origin, session(early)))).toBe(401);
    expect(await open.call('app/info')).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(await open.closed).toEqual({
      code: SESSION_ENDED_CLOSE,
      reason: 'The session ended: sign in again.',
    });
  });

  it("an administrator's revoke closes the account's open sockets at once, and no one else's", async () => {
    const { admin, origin, session: signIn } = await service();
    const ada = await openWindow(origin, session(await signIn('ada')));
    const bob = await openWindow(origin, session(await signIn('bob')));
    await admin['accounts/revoke']({ name: 'ada' });
    expect(await ada.closed).toMatchObject({ code: SESSION_ENDED_CLOSE });
    expect(await bob.call('app/info')).toMatchObject({ ok: true });
  });

  it('without --web-window there is no window: no page, no socket', async () => {
    const { origin, session: signIn } = await service(false);
    expect((await get(origin, '/')).status).toBe(404);
    expect(await refusal(openWindow(origin, session(await signIn('bob'))))).toBe(404);
  });
});
