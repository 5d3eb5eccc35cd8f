import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Authenticator } from './auth';
import { type Body, parseBody, readBody } from './body';
import type { Controller } from './controller';
import type { ConnectionClose } from './options';
import type { Faults } from './faults';
import { badRequest, forbidden, HttpError, type Json, methodNotAllowed, notFound } from './http-error';
import { type ApiResponse, answerApiRequest } from './methods';
import { API_DISABLED_PAGE, loginPage, resourcePage } from './pages';
import type { StatsRecorder } from './stats';
import type { Container } from './tree';
import { API_PREFIX, parseApiPath, type Step } from './uri';

export interface HandlerDeps {
  controller: Controller;
  auth: Authenticator;
  faults: Faults;
  stats: StatsRecorder;
  root: Container;
  latency: () => number;
  /** Milliseconds added to the answer of `GET relay/outlets/` (the full list). */
  slowOutletList: () => number;
  /** Milliseconds added to every answer under `relay/outlets/` once carried out. */
  slowOutlets: () => number;
  hang: (res: ServerResponse) => void;
}

const TUNNELLED = ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'];
const MALFORMED_JSON = '{"relay": {"outlets": [{"state": tru';

/**
 * Writes an answer. Fast profile: keep-alive with Content-Length. A real unit's `Connection: close`
 * (connectionClose option): the body chunked, or close-delimited (no length at all: the end of the
 * body is the end of the connection).
 */
function send(
  res: ServerResponse,
  status: number,
  body: string | null,
  headers: Record<string, string | string[]>,
  head = false,
): void {
  if (res.destroyed || res.headersSent) return;
  const mode = connectionModes.get(res) ?? 'off';
  const all = { ...headers };
  if (mode !== 'off') {
    all.Connection = 'close';
    if (mode === 'close-delimited') res.useChunkedEncodingByDefault = false;
    res.writeHead(status, all);
    if (!head && body !== null && body !== '') res.write(body);
    res.end();
    return;
  }
  if (body !== null) all['Content-Length'] = String(Buffer.byteLength(body));
  else if (status !== 204) all['Content-Length'] = '0';
  res.writeHead(status, all);
  res.end(head || body === null ? undefined : body);
}

/** How each answer is framed (set once per request from the controller's behaviours). */
const connectionModes = new WeakMap<ServerResponse, ConnectionClose>();

/** rest.html's curl example for `script/start/` sends JSON with curl's default form content type. */
function bodyType(controller: Controller, pathname: string, contentType: string | undefined, raw: Buffer) {
  const form =
    (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
  if (!form || !controller.behaviours.formScriptStart || !pathname.endsWith('/script/start/'))
    return contentType;
  try {
    JSON.parse(raw.toString('utf8'));
    return 'application/json';
  } catch {
    return contentType;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: Json,
  headers: Record<string, string | string[]> = {},
  head = false,
): void {
  send(res, status, JSON.stringify(body), { 'Content-Type': 'application/json', ...headers }, head);
}

function fail(res: ServerResponse, error: unknown, head = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (!(error instanceof HttpError)) console.error('emulator: unexpected error', error);
  const http =
    error instanceof HttpError
      ? error
      : new HttpError(500, 'internal', 'The controller hit an unexpected error.');
  // An oversized body is not read to the end: close the connection behind the answer.
  const headers = http.status === 413 ? { ...http.headers, Connection: 'close' } : http.headers;
  sendJson(res, http.status, http.body(), headers, head);
}

/** `Range: dli-depth=N`; other range units are ignored. */
function parseDepth(range: string | undefined): number | null {
  if (range === undefined || !/^\s*dli-depth/i.test(range)) return null;
  const match = /^\s*dli-depth\s*=\s*(\d{1,3})\s*$/i.exec(range);
  if (!match) throw badRequest('Range must be dli-depth=N with a whole number N.', 'bad_range');
  return Math.min(Number(match[1]), 32);
}

function hasCsrfHeader(req: IncomingMessage): boolean {
  const requestedWith = req.headers['x-requested-with'];
  return (
    req.headers['x-csrf'] !== undefined ||
    (typeof requestedWith === 'string' && requestedWith.toLowerCase() === 'xmlhttprequest')
  );
}

/**
 * How late a slow unit answers: the full list (`GET relay/outlets/`, every field of every outlet) waits
 * `slowOutletList`; every answer under `relay/outlets/` waits `slowOutlets`; the longer of the two.
 */
function outletDelay(deps: HandlerDeps, steps: readonly Step[], reading: boolean): number {
  const [first, second] = steps;
  const underOutlets =
    first?.kind === 'key' && first.key === 'relay' && second?.kind === 'key' && second.key === 'outlets';
  if (!underOutlets) return 0;
  const fullList = reading && steps.length === 2 ? deps.slowOutletList() : 0;
  return Math.max(fullList, deps.slowOutlets());
}

/** Waits `ms`, or less if the client goes away (or the controller cuts it); says whether it is still there. */
async function waitUnlessGone(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed) return false;
  const gone = new AbortController();
  const onClose = (): void => gone.abort();
  res.once('close', onClose);
  try {
    await sleep(ms, undefined, { signal: gone.signal });
    return true;
  } catch {
    return false;
  } finally {
    res.off('close', onClose);
  }
}

async function run(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { controller } = deps;
  const latency = deps.latency();
  if (latency > 0) await sleep(latency);
  if (res.destroyed) return;
  const url = req.url ?? '/';
  const wireMethod = req.method ?? 'GET';
  const head = wireMethod === 'HEAD';
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);

  if (wireMethod === 'OPTIONS')
    throw forbidden('Cross-origin requests are refused by this controller.', 'cors');
  if (pathname !== '/restapi' && !pathname.startsWith(API_PREFIX)) {
    if (pathname !== '/' && pathname !== '/index.htm') throw notFound();
    if (wireMethod !== 'GET' && !head) throw methodNotAllowed(['GET', 'HEAD']);
    send(res, 200, loginPage(controller.config.name), { 'Content-Type': 'text/html; charset=utf-8' }, head);
    return;
  }
  if (!controller.config.restApiEnabled) {
    send(res, 404, API_DISABLED_PAGE, { 'Content-Type': 'text/html; charset=utf-8' }, head);
    return;
  }

  const caller = deps.auth.authenticate(req);
  if (wireMethod !== 'GET' && !head && !hasCsrfHeader(req)) {
    throw forbidden(
      'State-changing requests need an X-CSRF header (any value) or X-Requested-With: XMLHttpRequest.',
      'csrf',
    );
  }
  let method = wireMethod;
  const tunnel = req.headers['x-http-method'];
  if (typeof tunnel === 'string' && wireMethod === 'POST') {
    method = tunnel.trim().toUpperCase();
    if (!TUNNELLED.includes(method))
      throw badRequest(`X-HTTP-Method names ${JSON.stringify(tunnel)}, which this controller does not know.`);
  }
  if (!pathname.endsWith('/')) {
    // Raw bytes a client left unencoded must not break the header.
    const location = `${pathname}/${queryAt < 0 ? '' : url.slice(queryAt)}`.replace(/[^\x21-\x7e]/g, (char) =>
      encodeURIComponent(char),
    );
    sendJson(
      res,
      307,
      { error: 'redirect', message: `Resource URIs end with /: ${location}` },
      { Location: location },
      head,
    );
    return;
  }
  if (queryAt >= 0)
    throw badRequest('Query strings are not used by this API; use matrix URIs instead.', 'query_not_allowed');

  const fault = deps.faults.take(['error500', 'malformedJson'], wireMethod, url);
  if (fault === 'error500') throw new HttpError(500, 'internal', 'The controller had an internal error.');
  if (fault === 'malformedJson') {
    send(res, 200, MALFORMED_JSON, { 'Content-Type': 'application/json' }, head);
    return;
  }

  const steps = parseApiPath(pathname.slice(API_PREFIX.length));
  const reading = method === 'GET' || method === 'HEAD';
  const depth = reading ? parseDepth(req.headers.range) : null;
  const raw = reading ? Buffer.alloc(0) : await readBody(req);
  const body: Body = reading
    ? { kind: 'none' }
    : parseBody(bodyType(controller, pathname, req.headers['content-type'], raw), raw);
  const prefer = String(req.headers.prefer ?? '');
  const response: ApiResponse = answerApiRequest({ controller, caller }, deps.root, {
    method,
    steps,
    body,
    depth,
    representation: /return\s*=\s*representation/i.test(prefer),
  });
  // A slow unit: the outlets answer late, after the change was made (a client that gave up missed it).
  const slow = outletDelay(deps, steps, reading);
  if (slow > 0 && !(await waitUnlessGone(res, slow))) return;
  if (response.after) res.once('finish', () => setImmediate(response.after as () => void));
  const headers = response.headers ?? {};
  if (response.body === undefined) {
    send(res, response.status, null, headers);
    return;
  }
  const accept = req.headers.accept ?? '';
  if (reading && accept.includes('text/html') && !accept.includes('application/json')) {
    send(
      res,
      response.status,
      resourcePage(pathname, response.body),
      { 'Content-Type': 'text/html; charset=utf-8', ...headers },
      head,
    );
    return;
  }
  sendJson(res, response.status, response.body, headers, head);
}

/** The request handler: statistics and faults first, then the controller's own pipeline. */
export function createHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const finish = deps.stats.begin(method, url.split('?')[0] ?? url);
    connectionModes.set(res, deps.controller.behaviours.connectionClose);
    res.once('close', () => finish(res.writableFinished ? res.statusCode : 0));
    const arrival = deps.faults.take(['drop', 'hang'], method, url);
    if (arrival === 'drop') {
      req.socket.destroy();
      return;
    }
    if (arrival === 'hang') {
      deps.hang(res);
      return;
    }
    run(deps, req, res).catch((error: unknown) => fail(res, error, method === 'HEAD'));
  };
}
