/**
 * The `api` listener: a small JSON status API and Prometheus `/metrics` (metrics.ts).
 *
 *   GET  /api/v1/status                           this service: its name, role (leader or standby), the leader
 *   GET  /api/v1/controllers                      every saved controller: status, outlets, meters
 *   GET  /api/v1/controllers/<name or id>         one of them
 *   POST /api/v1/controllers/<name or id>/outlets/<n>   {"action": "on" | "off" | "cycle", "confirmCritical"?: true}
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
import type { Caller, ControllerState, ControllerSummary, OutletActionResult } from '../../src-preload/model';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { findController, serveActivity } from './api-activity';
import { attachRemoteLink } from './api-link';
import { CLOSE, sendJson, startGuardedServer, type ListenerContext, type RunningListener } from './listener';
import { signIn, SignInRefusal, signOut } from './api-sign-in';
import { startWebWindow } from './api-window';
import { isOidcPath, routeOidc, signInOffer } from './api-oidc';
import { bearerCaller, bearerSecret } from './sessions';

const MAX_BODY = 4096;
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
  if (
    parts[0] !== 'api' ||
    parts[1] !== 'v1' ||
    parts[2] !== 'controllers' ||
    parts.length > 6 ||
    parts.length === 5
  )
    throw new PlugboardError(
      'NOT_FOUND',
      `No such API path ${url.pathname.slice(0, 80)}: see /api/v1/controllers.`,
    );
  const snapshot = await handlers['app/snapshot']({});
  const states = new Map(snapshot.states.map((s) => [s.id, s]));
  if (parts.length === 3) {
    allow(method, ['GET', 'HEAD']);
    sendJson(
      response,
      200,
      snapshot.controllers.map((c) => controllerView(c, states.get(c.id))),
    );
    return;
  }
  const controller = findController(snapshot.controllers, parts[3]!);
  if (parts.length === 4) {
    allow(method, ['GET', 'HEAD']);
    sendJson(response, 200, controllerView(controller, states.get(controller.id)));
    return;
  }
  if (parts[4] !== 'outlets')
    throw new PlugboardError('NOT_FOUND', `No such API path ${url.pathname.slice(0, 80)}.`);
  allow(method, ['POST']);
  const outlet = Number(parts[5]);
  if (!/^\d+$/.test(parts[5]!) || outlet < 1)
    throw new PlugboardError(
      'BAD_INPUT',
      `Outlet ${JSON.stringify(parts[5])} is not an outlet number; outlets are numbered from 1, as on the unit.`,
    );
  const { action, confirmCritical } = await readAction(request);
  const result: OutletActionResult = await confirmable(
    action,
    action === 'cycle'
      ? handlers['outlets/cycle']({ controllerId: controller.id, outlet, confirmCritical })
      : handlers['outlets/set']({
          controllerId: controller.id,
          outlets: [outlet],
          on: action === 'on',
          confirmCritical,
        }),
  );
  const failure = result.failed[0];
  if (failure)
    throw new PlugboardError(
      failure.error.code,
      failure.error.message,
      failure.error.detail,
      failure.error.action ? { action: failure.error.action } : {},
    );
  sendJson(response, result.unconfirmed?.length ? 202 : 200, {
    controller: controller.name,
    outlet,
    action,
    ...result,
  });
}

/** A critical outlet refused: the Core's sentence as it is, and how to confirm through this API. */
async function confirmable<T>(action: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!isPlugboardError(error) || error.code !== 'CRITICAL_UNCONFIRMED') throw error;
    throw new PlugboardError(error.code, error.message, error.detail, {
      action: `Send {"action": "${action}", "confirmCritical": true} to confirm.`,
    });
  }
}

/** The request target as a URL; one no URL parser reads is the client's mistake, not ours. */
function requestUrl(target: string): URL {
  try {
    return new URL(target, 'http://api.invalid');
  } catch {
    throw new PlugboardError(
      'BAD_INPUT',
      `The request target ${JSON.stringify(target.slice(0, 80))} is not a path: send /api/v1/controllers.`,
    );
  }
}

function decodePart(part: string, path: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new PlugboardError(
      'BAD_INPUT',
      `The path ${JSON.stringify(path.slice(0, 80))} has a malformed percent-encoding: write a "%" as %25, and other characters as %XX with two hexadecimal digits.`,
    );
  }
}

function allow(method: string, methods: string[]): void {
  if (!methods.includes(method))
    throw new ApiError(405, 'BAD_INPUT', `${method} is not allowed here; use ${methods.join(' or ')}.`, {
      Allow: methods.join(', '),
    });
}

async function readAction(
  request: IncomingMessage,
): Promise<{ action: 'on' | 'off' | 'cycle'; confirmCritical: boolean }> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_BODY)
      throw new PlugboardError('BAD_INPUT', `The request body is over ${MAX_BODY} bytes.`);
  }
  let parsed: { action?: unknown; confirmCritical?: unknown } = {};
  try {
    parsed = (JSON.parse(body) as typeof parsed | null) ?? {};
  } catch {
    parsed = {};
  }
  const { action, confirmCritical } = parsed;
  if (
    (action === 'on' || action === 'off' || action === 'cycle') &&
    [undefined, true, false].includes(confirmCritical as never)
  )
    return { action, confirmCritical: confirmCritical === true };
  throw new PlugboardError(
    'BAD_INPUT',
    'Send a JSON body {"action": "on"}, "off" or "cycle" (with "confirmCritical": true for a critical outlet).',
  );
}

export function controllerView(controller: ControllerSummary, state: ControllerState | undefined): unknown {
  return {
    id: controller.id,
    name: controller.name,
    url: controller.url,
    status: state?.status ?? 'connecting',
    problem: state?.problem ?? null,
    lastUpdate: state?.lastUpdate ?? null,
    outlets: (state?.outlets ?? []).map((o) => ({
      number: o.number,
      name: o.name,
      state: o.state,
      transientState: o.transientState,
      physicalState: o.physicalState,
      locked: o.locked,
      critical: o.critical,
      pending: o.pending,
    })),
    meters: (state?.meters ?? [])
      .filter((m) => !m.internal)
      .map((m) => ({ key: m.key, name: m.name, quantity: m.quantity, value: m.value, unit: m.unit })),
  };
}

/** A refusal of the API itself (no token, wrong method), with its HTTP status and headers. */
class ApiError extends PlugboardError {
  constructor(
    readonly status: number,
    code: 'AUTH_FAILED' | 'BAD_INPUT' | 'FORBIDDEN',
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message);
  }
}

/** The HTTP status for the Core's error codes: the unit's troubles are a bad gateway, not the client's. */
function statusOf(code: string): number {
  switch (code) {
    case 'BAD_INPUT':
      return 400;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'LOCKED':
    case 'CANCELLED':
    case 'RESERVED':
    case 'CRITICAL_UNCONFIRMED': // the same request with "confirmCritical": true would be done; 403 is a role's
      return 409;
    case 'UNREACHABLE':
    case 'AUTH_FAILED':
    case 'DEVICE_ERROR':
    case 'TLS_CHANGED':
    case 'TLS_UNTRUSTED':
    case 'API_DISABLED':
    case 'NOT_A_CONTROLLER':
    case 'UNSUPPORTED_FIRMWARE':
      return 502;
    case 'TIMEOUT':
      return 504;
    case 'STORE':
    case 'STANDBY': // another service leads the lab: the body names it and its address
      return 503;
    case 'INTERNAL':
      return 500;
    default:
      return 409; // the Core's other refusals are conflicts with its state
  }
}
