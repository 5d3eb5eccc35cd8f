import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { resolve } from 'node:path';
import { WebSocketServer } from 'ws';
import { appVersion, findAppRoot } from '../shared/app-root';
import { consoleLogger, type Logger } from '../shared/logging';
import type { Core } from '../core/index';
import { contentSecurityPolicy } from '../shared/csp';
import {
  checkPageRequest,
  checkUpgrade,
  createAccess,
  newToken,
  SOCKET_PROTOCOL,
  type Access,
} from './access';
import { bridgeCore } from './bridge';
import { createConnectionGuard, guardHttpServer, type ConnectionLimits } from './connection-guard';
import { excerpt, limitedLog } from './log-limit';
import { MAX_MESSAGE, SOCKET_PATH } from './socket-protocol';
import { loadRenderer, type StaticFile } from './static-files';
import { borrowedCore, openWebCore } from './web-core';

export { MAX_MESSAGE };

/** Loopback only: the shell has no login beyond the token, so it must never face a network. */
const HOST = '127.0.0.1';
/**
 * One person's browser: about six connections per tab and a WebSocket. A flood of idle connections
 * (no token is needed to connect) is held to these, the idle ones closed oldest first, so it neither
 * runs the service out of file descriptors nor locks the window out.
 */
export const WEB_LIMITS: ConnectionLimits = {
  maxConnections: 128,
  maxPerAddress: 64,
  requestDeadlineMs: 10_000,
};
/** The source tree, or the folder holding out/ and package.json once built or packaged. */
const appRoot = (): string => findAppRoot(import.meta.dirname);

export interface WebShellOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** A Core to serve (tests, the bench); by default the shell makes one and disposes it on close. */
  core?: Core;
  /** Throwaway run with the demo controllers started at once (implies `ephemeral`). */
  demo?: boolean;
  /** Throwaway run: nothing is read from or written to the config folder or the keychain. */
  ephemeral?: boolean;
  /** The built renderer; default out/renderer. */
  rendererDir?: string;
  /** This run's token; by default a fresh random one. Tests restart a shell with the same one. */
  token?: string;
  log?: Logger;
}

export interface RunningWebShell {
  /** The address to open, with this run's token: `http://127.0.0.1:PORT/?token=…` (the page takes it out). */
  url: string;
  token: string;
  port: number;
  /** A line about the Core the shell uses (another Plugboard's), or null. */
  note: string | null;
  /** Resolves with a sentence if that Core goes away (the shell must then stop). */
  coreGone: Promise<string>;
  close(): Promise<void>;
}

export async function startWebShell(options: WebShellOptions = {}): Promise<RunningWebShell> {
  const log = options.log ?? consoleLogger('[plugboard web]');
  const files = await loadRenderer(options.rendererDir ?? resolve(appRoot(), 'out', 'renderer'));
  const opened = options.core ? borrowedCore(options.core) : await openWebCore(coreOptions(options), log);
  const { core } = opened;
  // Node's timers bound the time to receive a request's body, checked every second (not every 30 s).
  const server = createServer({
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    connectionsCheckingInterval: 1_000,
  });
  // Refusals and broken frames are logged, but a flood of them must not fill the log.
  const strangerLog = limitedLog(log);
  const guard = createConnectionGuard({ name: 'web', limits: WEB_LIMITS, log: strangerLog });
  guardHttpServer(server, guard);
  try {
    await listen(server, options.port ?? 0);
  } catch (error) {
    strangerLog.close();
    await opened.close();
    throw error;
  }
  // An accept that fails (out of file descriptors) is told, not thrown: the shell goes on.
  server.on('error', (error) => strangerLog(`web: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  const token = options.token ?? newToken();
  const access = createAccess(token, HOST, port);
  // The page connects to nothing but its own socket.
  const csp = contentSecurityPolicy({ connect: [`ws://${access.host}`] });

  server.on('request', (request: IncomingMessage, response: ServerResponse) =>
    serve(request, response, access, csp, files),
  );
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE,
    // Answer with the protocol, never echo the token the page offered next to it.
    handleProtocols: () => SOCKET_PROTOCOL,
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined); // a client that resets mid-refusal must not end the process
    const check = checkUpgrade(request, access);
    const path = pathOf(request, access);
    if (!check.ok || path !== SOCKET_PATH) {
      strangerLog(
        `Refused a WebSocket connection: ${check.ok ? `unknown path ${excerpt(path)}` : check.reason}.`,
      );
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });
  const stopEvents = bridgeCore(sockets, core, log, strangerLog);
  // Someone is looking while a browser is connected; otherwise only the outlets are polled.
  sockets.on('connection', (socket) => {
    core.setVisible(true);
    socket.once('close', () => core.setVisible(sockets.clients.size > 0));
  });

  let closing: Promise<void> | undefined;
  return {
    url: `${access.origin}/?token=${token}`,
    token,
    port,
    note: opened.note,
    coreGone: opened.gone,
    close: () =>
      (closing ??= (async () => {
        stopEvents();
        for (const client of sockets.clients) client.terminate();
        await new Promise<void>((done) => sockets.close(() => done()));
        await new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
          guard.closeAll();
        });
        strangerLog.close();
        await opened.close();
      })()),
  };
}

function coreOptions(options: WebShellOptions): Parameters<typeof openWebCore>[0] {
  return { demo: options.demo === true, ephemeral: options.ephemeral === true, version: appVersion() };
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, HOST, () => {
      server.off('error', fail);
      done();
    });
  });
}

function serve(
  request: IncomingMessage,
  response: ServerResponse,
  access: Access,
  csp: string,
  files: Map<string, StaticFile>,
): void {
  setSecurityHeaders(response, csp);
  // No token here: the built window holds no secret, and only its socket needs the token (access.ts).
  const check = checkPageRequest(request, access);
  if (!check.ok) {
    response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end(
      `Forbidden: ${check.reason}. Open the address printed by \`npm run web\` (${access.origin}/?token=…).\n`,
    );
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('Only GET and HEAD.\n');
    return;
  }
  const file = files.get(pathOf(request, access));
  if (!file) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('Not found.\n');
    return;
  }
  response.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length });
  response.end(request.method === 'HEAD' ? undefined : file.body);
}

/** The request's path; a target no URL parser accepts is a path no file has. */
function pathOf(request: IncomingMessage, access: Access): string {
  try {
    return new URL(request.url ?? '/', access.origin).pathname;
  } catch {
    return '';
  }
}

export function setSecurityHeaders(response: ServerResponse, csp: string): void {
  response.setHeader('Content-Security-Policy', csp);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  response.setHeader('Cache-Control', 'no-store');
}
