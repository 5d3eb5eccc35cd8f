import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Result } from '../../src-preload/contract';
import { buildWebPreload } from '../../electron.vite.config';
import { SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../src-main/web/access';
import { WEB_PRELOAD_PATH } from '../../src-main/web/static-files';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function get(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
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

/** The subprotocols the page offers: the shell's protocol and the token. */
export function tokenProtocols(token: string): string[] {
  return [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
}

/**
 * A non-browser client (the ws library): it sets any Host, Origin or Cookie it likes. Resolves with the
 * socket once open, or rejects with the HTTP status of a refusal.
 */
export function openSocket(
  url: string,
  headers: Record<string, string>,
  protocols: string[] = [],
): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const socket = new WebSocket(url, protocols, { headers });
    socket.once('open', () => done(socket));
    socket.once('unexpected-response', (_req, res) => fail(new Error(`refused with ${res.statusCode}`)));
    socket.once('error', fail);
  });
}

export class Client {
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

/**
 * A small stand-in for out/renderer so the node tests need no full build (the browser tests use the
 * real one), with the real web preload, built as `npx electron-vite build` builds it (about 0.1 s).
 */
export async function standInRenderer(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plugboard-web-test-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta charset="UTF-8" /><meta http-equiv="Content-Security-Policy" content="connect-src 'none'" /><script type="module" src="./assets/app.js"></script></head><body></body></html>`,
  );
  await writeFile(join(dir, 'assets', 'app.js'), 'console.log("app");');
  await writeFile(join(dir, 'assets', 'app.css'), 'body { margin: 0 }');
  await writeFile(join(dir, WEB_PRELOAD_PATH), await buildWebPreload());
  return dir;
}
