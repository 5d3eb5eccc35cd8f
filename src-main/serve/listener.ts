/**
 * What every listener of `plugboard serve` is given and gives back, and the guarded HTTP(S) server
 * they share: server-side timeouts and a connection cap, the client-network allowlist, the Host check
 * (DNS rebinding), request counters, and a bounded graceful close.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Core } from '../core/index';
import type { Logger } from '../shared/logging';
import { limitedLog, type LimitedLog } from '../web/log-limit';
import type { ServiceMetrics } from './metrics';
import { applyServerLimits, clientAllowed, hostAllowed, type ClientNetworks } from './network';
import type { ListenSpec } from './options';
import type { Token } from './tokens';

export interface TlsMaterial {
  key: string;
  cert: string;
  fingerprint256: string;
}

export interface ListenerContext {
  core: Core;
  spec: ListenSpec;
  allow: ClientNetworks | null;
  tokens: readonly Token[];
  hostNames: readonly string[];
  /** The API's certificate, when it serves HTTPS. */
  tls: TlsMaterial | null;
  metrics: ServiceMetrics;
  log: Logger;
}

export interface RunningListener {
  name: string;
  /** What to print once it listens ("api: https://…/api/v1/ (certificate SHA-256 AB:…)"). */
  lines: string[];
  /** Stop accepting, let requests under way finish for up to `graceMs`, then close what is left. */
  close(graceMs: number): Promise<void>;
}

export type ListenerFactory = (context: ListenerContext) => Promise<RunningListener>;

export interface GuardedServer {
  server: Server;
  port: number;
  /** `http://127.0.0.1:16422` or `https://…`; IPv6 in brackets. */
  origin: string;
  close(graceMs: number): Promise<void>;
}

/**
 * An HTTP(S) server with the guards, not yet listening: `handle` sees only requests from an allowed
 * client with an acceptable Host; the rest get 403 with a sentence (logged, bounded). A listener that
 * shares its port with another protocol (pdudaemon's HTTP and TCP) hands it HTTP connections with
 * `server.emit('connection', socket)`. `refusals.close()` when done.
 */
export function createGuardedServer(
  context: ListenerContext,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): { server: Server; refusals: LimitedLog } {
  const { spec, metrics } = context;
  const server = context.tls
    ? createHttpsServer({ key: context.tls.key, cert: context.tls.cert, minVersion: 'TLSv1.2' })
    : createHttpServer();
  applyServerLimits(server);
  const refusals: LimitedLog = limitedLog(context.log);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.on('finish', () => metrics.request(spec.name, response.statusCode));
    const remote = request.socket.remoteAddress;
    const refusal = !clientAllowed(remote, context.allow)
      ? `your address ${remote ?? '?'} is not in the client networks this listener allows (--allow)`
      : !hostAllowed(request.headers.host, context.hostNames)
        ? `the Host ${JSON.stringify((request.headers.host ?? '').slice(0, 80))} is not this machine's address or a name given with --host-name`
        : null;
    if (refusal) {
      metrics.error(spec.name, 'FORBIDDEN');
      refusals(`${spec.name}: refused a request from ${remote ?? '?'}: ${refusal}.`);
      sendJson(response, 403, { error: { code: 'FORBIDDEN', message: `Refused: ${refusal}.` } });
      return;
    }
    handle(request, response);
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return { server, refusals };
}

/** createGuardedServer, listening on `context.spec`. */
export async function startGuardedServer(
  context: ListenerContext,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<GuardedServer> {
  const { spec } = context;
  const { server, refusals } = createGuardedServer(context, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(spec.port, spec.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  return {
    server,
    port,
    origin: `${context.tls ? 'https' : 'http'}://${host}:${port}`,
    close: (graceMs) => closeGracefully(server, graceMs).finally(() => refusals.close()),
  };
}

/** Stop accepting; idle keep-alive connections close now, busy ones get `graceMs` to finish. */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(text);
}
