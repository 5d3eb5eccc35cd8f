/**
 * The window for the lab network, on the `api` listener (`plugboard serve --web-window`), so that its
 * pages, sign-in, status and the JSON API share one origin (no CORS, one certificate to trust):
 *
 *   GET /                 the window (the built renderer, as the web shell serves it), marked as a lab's
 *   GET /sign-in, /sign-out   the sign-in page (page/sign-in.ts): a password, or the lab's identity provider
 *   GET /api/v1/window    (WebSocket) the web shell's bridge protocol (web/bridge.ts), acting as the account
 *
 * The page holds the session in the tab's sessionStorage and offers it as the subprotocol
 * `plugboard.token.<session>`, as the web shell's page offers its per-run token: never a cookie (a
 * browser sends a cookie to every port of the host, and with any request another site makes it send),
 * never in a URL. A socket without a live session is refused before the handshake (401); one whose
 * Origin is not this listener's own (a page of another site, a DNS-rebound name) 403, whatever it offers.
 * Every call reads the session again and acts as `{door: 'web', who: <account>, role, scope}`; a socket
 * whose session has ended (signed out, revoked, expired, its account disabled or removed) answers
 * AUTH_FAILED and closes with SESSION_ENDED_CLOSE. Open sockets are also checked whenever the activity
 * log records something about the lab service (an administrator revokes, disables or removes an account;
 * a sign-in or sign-out), and every SWEEP_MS whatever happens (a session's hard end, a change made by
 * another service on the same store), so a window that only watches is shut out too. Each check counts
 * as a use of the session: an open window keeps it from ending idle (never past its week).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { findAppRoot } from '../shared/app-root';
import { contentSecurityPolicy } from '../shared/csp';
import { offeredProtocols } from '../web/access';
import { bridgeCore, SESSION_ENDED_REASON } from '../web/bridge';
import { excerpt, limitedLog } from '../web/log-limit';
import { setSecurityHeaders } from '../web/server';
import {
  MAX_MESSAGE,
  SESSION_ENDED_CLOSE,
  SOCKET_PROTOCOL,
  TOKEN_PROTOCOL_PREFIX,
  WINDOW_SOCKET_PATH,
} from '../web/socket-protocol';
import { loadRenderer, WEB_PRELOAD_PATH, type StaticFile } from '../web/static-files';
import type { ListenerContext } from './listener';
import { refuseUpgrade } from './link-bridge';
import { clientAllowed, hostAllowed } from './network';
import { sessionCaller } from './sessions';

/** How often open windows' sessions are checked when nothing prompts it. */
export const SWEEP_MS = 60_000;
/** The sign-in page (built from page/sign-in.html), served at /sign-in and /sign-out. */
export const SIGN_IN_PAGE = '/sign-in.html';
/** What tells the page script (page/web-preload.ts) and the window that they run on a lab's service. */
export const LAB_WINDOW_MARK = '<meta name="plugboard-window" content="lab">';

export interface WebWindow {
  /** Answer a request for one of the window's pages or files; false when the path is none of them. */
  serve(request: IncomingMessage, response: ServerResponse): boolean;
  /** Take (or refuse) an upgrade to WINDOW_SOCKET_PATH. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Take the server's upgrades to WINDOW_SOCKET_PATH (the remote link leaves them alone: api-link.ts). */
  attach(server: Server): void;
  /** Stop sending events and ask every window's socket to close (the service stops). */
  close(): void;
  /** Drop what is still open (after the server closed). */
  terminate(): void;
}

/** The built renderer, beside the code in the source tree, the build and the package. */
export function builtRendererDir(): string {
  return join(findAppRoot(import.meta.dirname), 'out', 'renderer');
}

export async function startWebWindow(
  context: ListenerContext,
  rendererDir = builtRendererDir(),
): Promise<WebWindow> {
  if (!context.core.accounts)
    throw new Error(
      '--web-window: this service keeps no accounts to sign in with (its lab store did not open).',
    );
  const files = labFiles(await loadRenderer(rendererDir));
  const name = context.spec.name;
  const scheme = context.tls ? 'https' : 'http';
  const refusals = limitedLog(context.log);
  const sessions = new Map<WebSocket, string>();
  const secrets = new WeakMap<IncomingMessage, string>();
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE,
    // Answer with the protocol, never echo the session the page offered next to it.
    handleProtocols: () => SOCKET_PROTOCOL,
  });
  const callerOf = (request: IncomingMessage) => {
    const secret = secrets.get(request)!;
    return () => sessionCaller(context, secret, 'web');
  };
  const stopBridge = bridgeCore(sockets, context.core, context.log, refusals, callerOf);
  sockets.on('connection', (ws: WebSocket, request: IncomingMessage) => {
    sessions.set(ws, secrets.get(request)!);
    ws.once('close', () => sessions.delete(ws));
  });

  // One sweep at a time; one asked for meanwhile runs after it (the change may have come after its check).
  let sweeping = false;
  let again = false;
  const sweep = async (): Promise<void> => {
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = true;
    try {
      do {
        again = false;
        for (const [ws, secret] of [...sessions]) {
          const caller = await sessionCaller(context, secret, 'web').catch(() => undefined);
          if (caller === null && ws.readyState === ws.OPEN)
            ws.close(SESSION_ENDED_CLOSE, SESSION_ENDED_REASON);
        }
      } while (again);
    } finally {
      sweeping = false;
    }
  };
  const stopWatch = context.core.subscribe((event, payload) => {
    // Entries about the lab service itself (no controller): account changes, sign-ins and sign-outs.
    if (event === 'activity/added' && (payload as { controllerId: string }).controllerId === '') void sweep();
  });
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();

  const ownOrigin = (request: IncomingMessage): string => `${scheme}://${request.headers.host ?? ''}`;
  const foreignOrigin = (request: IncomingMessage): string | null => {
    const origin = request.headers.origin;
    return origin !== undefined && origin.toLowerCase() !== ownOrigin(request).toLowerCase() ? origin : null;
  };

  const served: WebWindow = {
    serve(request, response) {
      const path = pathOf(request);
      const file = files.get(path);
      if (!file) return false;
      const host = request.headers.host ?? '';
      // The page connects to its own origin only: the JSON API and this socket.
      setSecurityHeaders(
        response,
        contentSecurityPolicy({ connect: ["'self'", `${scheme === 'https' ? 'wss' : 'ws'}://${host}`] }),
      );
      const foreign = foreignOrigin(request);
      if (foreign !== null) {
        context.metrics.error(name, 'FORBIDDEN');
        refusals(`${name}: refused a window request from the foreign Origin ${excerpt(foreign)}.`);
        response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
        response.end(`Forbidden: this page belongs to ${ownOrigin(request)}, not ${foreign}.\n`);
        return true;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
        response.end('Only GET and HEAD.\n');
        return true;
      }
      response.writeHead(200, { 'Content-Type': file.type, 'Content-Length': file.body.length });
      response.end(request.method === 'HEAD' ? undefined : file.body);
      return true;
    },

    upgrade(request, socket, head) {
      const refuse = (status: number, reason: string, code: string, message: string, headers = {}) => {
        context.metrics.error(name, code);
        context.metrics.request(name, status);
        refusals(`${name}: refused a window socket from ${request.socket.remoteAddress ?? '?'}: ${message}`);
        refuseUpgrade(socket, status, reason, { code, message }, headers);
      };
      if (!clientAllowed(request.socket.remoteAddress, context.allow))
        return refuse(
          403,
          'Forbidden',
          'FORBIDDEN',
          'Refused: your address is not in the client networks this listener allows (--allow).',
        );
      if (!hostAllowed(request.headers.host, context.hostNames))
        return refuse(
          403,
          'Forbidden',
          'FORBIDDEN',
          "Refused: the Host is not this machine's address or a name given with --host-name.",
        );
      if (request.headers.origin === undefined || foreignOrigin(request) !== null)
        return refuse(
          403,
          'Forbidden',
          'FORBIDDEN',
          `Refused: the window's socket opens only from this service's own pages (${ownOrigin(request)}), not from ${excerpt(request.headers.origin ?? 'no Origin')}.`,
        );
      const offered = offeredProtocols(request.headers['sec-websocket-protocol']);
      if (!offered.includes(SOCKET_PROTOCOL))
        return refuse(400, 'Bad Request', 'BAD_INPUT', `Offer the WebSocket subprotocol ${SOCKET_PROTOCOL}.`);
      const offeredSessions = offered.filter((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
      const secret =
        offeredSessions.length === 1 ? offeredSessions[0]!.slice(TOKEN_PROTOCOL_PREFIX.length) : null;
      const unauthorized = () =>
        refuse(
          401,
          'Unauthorized',
          'AUTH_FAILED',
          `The window needs a signed-in session, offered as the subprotocol ${TOKEN_PROTOCOL_PREFIX}<session>: sign in at /sign-in.`,
        );
      if (secret === null) return unauthorized();
      // Only an account's session: the service's tokens are for machines, not for a browser tab.
      void sessionCaller(context, secret, 'web').then(
        (caller) => {
          if (caller === null) return unauthorized();
          context.metrics.request(name, 101);
          secrets.set(request, secret);
          sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
        },
        (error: unknown) => {
          context.log('web window: could not check the session', error);
          refuse(503, 'Service Unavailable', 'STORE', 'The service could not check the session; try again.');
        },
      );
    },

    attach(server) {
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if ((request.url ?? '').split('?')[0] === WINDOW_SOCKET_PATH) served.upgrade(request, socket, head);
      });
    },

    close() {
      stopWatch();
      stopBridge();
      clearInterval(timer);
      for (const ws of sockets.clients) ws.close(1001, 'The Plugboard service is stopping.');
    },

    terminate() {
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      refusals.close();
    },
  };
  return served;
}

/**
 * The renderer's files as the lab serves them: the window at / marked as a lab's (before the page
 * script, which reads the mark as it runs), and the sign-in page at /sign-in and /sign-out. Paths are
 * looked up exactly, so no request path reaches the file system.
 */
function labFiles(renderer: Map<string, StaticFile>): Map<string, StaticFile> {
  const files = new Map(renderer);
  const signIn = files.get(SIGN_IN_PAGE);
  if (!signIn)
    throw new Error(
      `The built window has no sign-in page (${SIGN_IN_PAGE}). Build it with \`npx electron-vite build\`.`,
    );
  const html = files.get('/index.html')!.body.toString('utf8');
  const script = `<script src="${WEB_PRELOAD_PATH}"></script>`;
  if (!html.includes(script)) throw new Error('The built index.html has no web preload to mark.');
  const index = {
    type: files.get('/index.html')!.type,
    body: Buffer.from(html.replace(script, `${LAB_WINDOW_MARK}${script}`)),
  };
  files.set('/', index);
  files.set('/index.html', index);
  files.set('/sign-in', signIn);
  files.set('/sign-out', signIn);
  return files;
}

/** The request's path; a target no URL parser accepts is a path no file has. */
function pathOf(request: IncomingMessage): string {
  try {
    return new URL(request.url ?? '/', 'http://window.invalid').pathname;
  } catch {
    return '';
  }
}
