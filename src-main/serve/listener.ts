/**
 * What every listener of `plugboard serve` is given and gives back, and the guarded HTTP(S) server
 * they share: a deadline to a complete request and connection caps (web/connection-guard.ts), Node's
 * server-side timeouts, the client-network allowlist, the Host check (DNS rebinding), request counters,
 * and a graceful close bounded by the shutdown's grace period.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Core } from '../core/index';
import type { Logger } from '../shared/logging';
import {
  createConnectionGuard,
  guardHttpServer,
  type ConnectionGuard,
  type ConnectionLimits,
} from '../web/connection-guard';
import { excerpt, limitedLog, type LimitedLog } from '../web/log-limit';
import type { ServiceMetrics } from './metrics';
import {
  applyServerLimits,
  clientAllowed,
  CONNECTION_LIMITS,
  hostAllowed,
  SERVER_OPTIONS,
  type ClientNetworks,
} from './network';
import type { ListenSpec } from './options';
import type { Token } from './tokens';
import type { OidcSignIn } from './oidc-service';

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
  /** Whether this service leads the lab, and who does (absent: it leads alone, as with a SQLite store). */
  role?: () => ServiceRole;
  /** The api listener also serves the window to signed-in accounts (--web-window; api-window.ts). */
  webWindow?: boolean;
  /** The built renderer the web window serves (default: out/renderer beside the code). */
  rendererDir?: string;
  /** Signing in through the lab's identity provider (api-oidc.ts), when the service has one. */
  oidc?: OidcSignIn | null;
}

/** What `GET /api/v1/status` says of the lab's services. */
export interface ServiceRole {
  service: string;
  role: 'leader' | 'standby';
  leader: string | null;
  leaderAddress: string | null;
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
 * client with an acceptable Host; the rest get 403 with a sentence (logged, bounded). Connections are
 * admitted by `guard` (caps, deadline; `limits` default to the API's). `refusals.close()` when done.
 */
export function createGuardedServer(
  context: ListenerContext,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  limits: ConnectionLimits = CONNECTION_LIMITS.api,
): { server: Server; refusals: LimitedLog; guard: ConnectionGuard } {
  const { spec, metrics } = context;
  const server = context.tls
    ? createHttpsServer({
        key: context.tls.key,
        cert: context.tls.cert,
        minVersion: 'TLSv1.2',
        ...SERVER_OPTIONS,
      })
    : createHttpServer(SERVER_OPTIONS);
  applyServerLimits(server);
  const refusals: LimitedLog = limitedLog(context.log);
  const guard = createConnectionGuard({ name: spec.name, limits, log: refusals });
  guardHttpServer(server, guard);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.on('finish', () => metrics.request(spec.name, response.statusCode));
    const remote = request.socket.remoteAddress;
    const refusal = !clientAllowed(remote, context.allow)
      ? `your address ${remote ?? '?'} is not in the client networks this listener allows (--allow)`
      : !hostAllowed(request.headers.host, context.hostNames)
        ? `the Host ${excerpt(request.headers.host ?? '')} is not this machine's address or a name given with --host-name`
        : null;
    if (refusal) {
      metrics.error(spec.name, 'FORBIDDEN');
      refusals(`${spec.name}: refused a request from ${remote ?? '?'}: ${refusal}.`);
      sendJson(response, 403, { error: { code: 'FORBIDDEN', message: `Refused: ${refusal}.` } }, CLOSE);
      return;
    }
    handle(request, response);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
    answerClientError(error, socket),
  );
  return { server, refusals, guard };
}

/** The header that ends a connection after its answer: every refusal and error carries it. */
export const CLOSE = { Connection: 'close' } as const;

const CLIENT_ERRORS: Record<string, [string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['408 Request Timeout', 'The request did not arrive in time.'],
  HPE_HEADER_OVERFLOW: ['431 Request Header Fields Too Large', 'The request headers are too large.'],
};

/**
 * A request Node's parser could not read, or one that did not arrive in time: a short answer with a
 * sentence, then the socket is destroyed (not half-closed: it would hold its place under the cap).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const [status, sentence] = CLIENT_ERRORS[error.code ?? ''] ?? [
    '400 Bad Request',
    'The request is not well-formed HTTP/1.1.',
  ];
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || error.code === 'ECONNRESET' || answering) {
    socket.destroy();
    return;
  }
  const body = `${sentence}\n`;
  socket.end(
    `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** createGuardedServer, listening on `context.spec`. */
export async function startGuardedServer(
  context: ListenerContext,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<GuardedServer> {
  const { spec } = context;
  const { server, refusals, guard } = createGuardedServer(context, handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(spec.port, spec.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // An accept that fails (out of file descriptors) is told, not thrown: the listener goes on.
  server.on('error', (error) => refusals(`${spec.name}: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  const host = spec.host.includes(':') ? `[${spec.host}]` : spec.host;
  return {
    server,
    port,
    origin: `${context.tls ? 'https' : 'http'}://${host}:${port}`,
    close: (graceMs) => closeGracefully(server, graceMs, guard).finally(() => refusals.close()),
  };
}

/**
 * Stop accepting; idle connections close now, busy ones get `graceMs` to finish, then whatever is left
 * is destroyed (with a guard, also connections Node's HTTP server does not count: a TLS handshake under
 * way, a refused upgrade, a WebSocket).
 */
export function closeGracefully(server: Server, graceMs: number, guard?: ConnectionGuard): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      guard?.closeAll();
    }, graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
    guard?.closeIdle();
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
