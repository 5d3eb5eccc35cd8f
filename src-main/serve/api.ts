/**
 * The `api` listener: a small JSON status API and Prometheus `/metrics` (metrics.ts).
 *
 *   GET  /api/v1/status                           this service: its name, role (leader or standby), the leader
 *   GET  /api/v1/controllers                      every saved controller: status, outlets, meters
 *   GET  /api/v1/controllers/<name or id>         one of them
 *   POST /api/v1/controllers/<name or id>/outlets/<n>   {"action": "on" | "off" | "cycle", "confirmCritical"?: true}
 *                                                 the controllers and their outlets (api-controllers.ts)
 *   GET  /api/v1/activity?from=&until=&controller=&outlet=&person=&door=&limit=   the activity log (api-activity.ts)
 *   GET  /metrics
 *   GET  /api/v1/link  (WebSocket, token required) the link protocol for `plugboard --service URL` (api-link.ts)
 *   POST /api/v1/sign-in, /api/v1/sign-out         an account's session (api-sign-in.ts)
 *   GET  /, /sign-in, /api/v1/window (WebSocket)  with --web-window, the window for signed-in accounts (api-window.ts)
 *   /api/v1/oidc/start, callback, exchange         signing in through the lab's identity provider (api-oidc.ts)
 *
 * With tokens (--token-file or the credential plugboard.tokens) every request needs
 * `Authorization: Bearer <secret>` and acts with its token's role (or a signed-in session's account); without, reads are open to loopback
 * and the allowed networks as an anonymous observer. Every request acts as the token's name through the
 * JSON API door, through the Core's handlers like every other door: the Core checks the role (an
 * observer's switch is refused there) and the activity log says "ci-runner, JSON API".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../../src-preload/model';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { serveActivity } from './api-activity';
import { serveControllers } from './api-controllers';
import { allow, ApiError, decodePart, requestUrl, statusOf } from './api-http';
import { attachRemoteLink } from './api-link';
import { CLOSE, sendJson, startGuardedServer, type ListenerContext, type RunningListener } from './listener';
import { signIn, SignInRefusal, signOut } from './api-sign-in';
import { startWebWindow } from './api-window';
import { isOidcPath, routeOidc, signInOffer } from './api-oidc';
import { bearerCaller, bearerSecret } from './sessions';

const NAME = 'api';
/** A client of a service given no tokens: it may read (loopback and --allow networks only). */
const ANONYMOUS: Caller = Object.freeze({
  door: 'json-api',
  who: 'anonymous',
  role: 'observer',
  credential: 'none',
});

export async function startApiListener(context: ListenerContext): Promise<RunningListener> {
  const webWindow = context.webWindow ? await startWebWindow(context, context.rendererDir) : null;
  const guarded = await startGuardedServer(context, (request, response) => {
    if (webWindow?.serve(request, response)) return;
    void route(context, request, response).catch((error: unknown) => {
      const failure = isPlugboardError(error)
        ? error
        : new PlugboardError('INTERNAL', 'Plugboard hit an internal error; the details are in its log.');
      if (!isPlugboardError(error)) context.log('JSON API: internal error', error);
      context.metrics.error(NAME, failure.code);
      const own = error instanceof ApiError || error instanceof SignInRefusal ? error : null;
      const status = own ? own.status : statusOf(failure.code);
      // An error ends the connection: a body left unread (too large, malformed) is never waited for.
      const headers = { ...(own ? own.headers : {}), ...CLOSE };
      if (!response.headersSent) sendJson(response, status, { error: failure.toContractError() }, headers);
      else response.destroy();
    });
  });
  const link = attachRemoteLink(guarded.server, context);
  webWindow?.attach(guarded.server);
  const tls = context.tls ? ` (TLS certificate SHA-256 ${context.tls.fingerprint256})` : '';
  return {
    name: NAME,
    lines: [
      `api: ${guarded.origin}/api/v1/controllers${tls}`,
      `metrics: ${guarded.origin}/metrics`,
      ...(webWindow ? [`web window: ${guarded.origin}/ (people sign in with their accounts)`] : []),
    ],
    async close(graceMs) {
      webWindow?.close();
      // Both within the one grace period: the links' calls and the requests under way.
      await Promise.all([link.close(graceMs), guarded.close(graceMs)]);
      link.terminate();
      webWindow?.terminate();
    },
  };
}

async function route(
  context: ListenerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = requestUrl(request.url ?? '/');
  const method = request.method ?? 'GET';
  if (url.pathname === '/api/v1/sign-in' || url.pathname === '/api/v1/sign-out') {
    allow(method, ['POST']);
    await (url.pathname === '/api/v1/sign-in' ? signIn : signOut)(context, request, response);
    return;
  }
  if (isOidcPath(url.pathname)) return routeOidc(context, url, request, response);
  // How to sign in is said to anyone who may connect (a sign-in page has no session yet); the rest of
  // the status only to whoever may read.
  if (url.pathname === '/api/v1/status' && !request.headers.authorization && context.tokens.length > 0) {
    allow(method, ['GET', 'HEAD']);
    sendJson(response, 200, { signIn: signInOffer(context) });
    return;
  }
  // A bearer is a token or a signed-in session; without one, a service given no tokens lets loopback
  // and the allowed networks read as an anonymous observer.
  const caller = await bearerCaller(request, context, 'json-api');
  if (caller === null && (context.tokens.length > 0 || bearerSecret(request) !== null)) {
    throw new ApiError(
      401,
      'AUTH_FAILED',
      'This API needs a token or a session: send "Authorization: Bearer <secret>" with one of the tokens the service was given, or the token POST /api/v1/sign-in gave.',
      {
        'WWW-Authenticate': 'Bearer realm="plugboard"',
      },
    );
  }
  const parts = url.pathname
    .split('/')
    .filter((p) => p.length > 0)
    .map((part) => decodePart(part, url.pathname));
  const handlers = context.core.handlersAs(caller ?? ANONYMOUS);

  if (url.pathname === '/metrics') {
    allow(method, ['GET', 'HEAD']);
    const snapshot = await handlers['app/snapshot']({});
    const text = await context.metrics.render(snapshot.controllers, snapshot.states);
    response.writeHead(200, { 'Content-Type': context.metrics.contentType, 'Cache-Control': 'no-store' });
    response.end(method === 'HEAD' ? undefined : text);
    return;
  }
  if (url.pathname === '/api/v1/status') {
    allow(method, ['GET', 'HEAD']);
    // Who may read the controllers may read this (the role check of an observer's read).
    await handlers['app/info']({});
    sendJson(response, 200, {
      ...(context.role?.() ?? { service: null, role: 'leader', leader: null, leaderAddress: null }),
      signIn: signInOffer(context),
    });
    return;
  }
  if (url.pathname === '/api/v1/activity') {
    allow(method, ['GET', 'HEAD']);
    await serveActivity(handlers, url.searchParams, method, response);
    return;
  }
  await serveControllers(handlers, parts, url, method, request, response);
}
