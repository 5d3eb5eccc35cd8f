/**
 * One HTTP exchange with a controller: credentials (digest with nonce reuse, bearer token, or basic when
 * chosen), the headers the API expects, one re-challenge on 401, buffered bodies and a size cap.
 * Every send has its own deadline from when it goes on the wire (a challenge's retry gets a fresh one).
 * The caller (connection.ts) serializes exchanges per controller and maps errors.
 *
 * Requests go through undici's dispatcher API (`request`), not its `fetch`: the same client, connection
 * and certificate check, without fetch's web-platform layer (streams, WebIDL, CORS headers), which cost
 * every `plugboard` call about 30 ms of start-up. Answers are asked for uncompressed.
 */
import { interceptors, type Dispatcher } from 'undici';
import { withDeadline } from './deadline';
import { DigestAuth } from './digest-auth';
import { PlugboardError } from '../shared/errors';
import { createDispatcher, type ControllerAgent } from './tls-pin';
import type { Credentials } from '../shared/credentials';
import type { ClientStats, HttpMethod } from './types';

export interface HttpRequest {
  method: HttpMethod;
  /** Below `/restapi/`, percent-encoded, ending with `/` ('' is the API root). */
  path: string;
  /** A form body `value=…` (the spec's way to write a field). */
  form?: Record<string, string>;
  /** A JSON body (calls such as `script/start/`). */
  json?: unknown;
  /** A JSON patch (RFC 6902) body: several fields of one object changed together (PATCH). */
  jsonPatch?: readonly { op: 'replace'; path: string; value: unknown }[];
  /** CSRF guard: `X-CSRF` on state-changing requests, `X-Requested-With` on user management. */
  guard?: 'csrf' | 'xhr';
  headers?: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: string;
}

/** Larger answers are refused: no controller's tree comes near this. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** What fetch followed at most (the probe only). */
const MAX_REDIRECTS = 20;

export interface TransportOptions {
  origin: string;
  credentials: Credentials;
  controller: string;
  fingerprint: string | null;
  onCertificate: (fingerprint: string) => void;
  /** Throws to refuse a request that changes the unit (DliClientOptions.beforeWrite): nothing is sent. */
  beforeWrite?: () => void;
}

export class Transport {
  readonly stats: ClientStats = { requests: 0, challenges: 0 };
  readonly #origin: string;
  readonly #credentials: Credentials;
  readonly #controller: string;
  readonly #digest: DigestAuth | null;
  readonly #dispatcher: ControllerAgent;
  readonly #beforeWrite: (() => void) | null;
  /** The same dispatcher, following redirects (only the probe does). */
  #following: Dispatcher | null = null;

  constructor(options: TransportOptions) {
    this.#origin = options.origin;
    this.#credentials = options.credentials;
    this.#controller = options.controller;
    this.#beforeWrite = options.beforeWrite ?? null;
    this.#digest =
      options.credentials.kind === 'digest'
        ? new DigestAuth(options.credentials.user, options.credentials.password)
        : null;
    this.#dispatcher = createDispatcher({
      fingerprint: options.fingerprint,
      controller: options.controller,
      onCertificate: options.onCertificate,
    });
  }

  /**
   * Send one API request; answers every status except a failed login (AUTH_FAILED). Each send may take
   * `timeoutMs` (else DeadlineExceeded).
   */
  async exchange(request: HttpRequest, signal: AbortSignal, timeoutMs: number): Promise<HttpResponse> {
    const url = `${this.#origin}/restapi/${request.path}`;
    const uri = new URL(url).pathname;
    const body = encodeBody(request);
    const send = (authorization: string | null): Promise<HttpResponse> => {
      // The fence, checked right before each send of a change (a challenge's retry too): a refusal
      // leaves before anything reaches the unit.
      if (request.method !== 'GET') this.#beforeWrite?.();
      return withDeadline(signal, timeoutMs, request.method, (own) =>
        this.#send(url, request, body, authorization, own),
      );
    };

    if (this.#credentials.kind !== 'digest') {
      const response = await send(this.#staticAuthorization());
      if (response.status === 401) throw this.#authFailed(response);
      return response;
    }
    const digest = this.#digest!;
    const first = await send(digest.header(request.method, uri));
    if (first.status !== 401) return first;
    // Either our first request (no nonce yet) or a nonce the controller no longer takes (stale):
    // answer the new challenge once, and give up if that fails too.
    if (!digest.accept(first.headers.get('www-authenticate'))) throw this.#authFailed(first);
    const second = await send(digest.header(request.method, uri));
    if (second.status === 401) {
      digest.reset();
      throw this.#authFailed(second);
    }
    return second;
  }

  /** A GET outside the API without credentials (to tell "API disabled" from "not a controller"). */
  probe(path: string, signal: AbortSignal, timeoutMs: number): Promise<HttpResponse> {
    return withDeadline(signal, timeoutMs, 'GET', async (own) => {
      this.stats.requests += 1;
      this.#following ??= this.#dispatcher.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
      return send(this.#following, `${this.#origin}${path}`, {
        method: 'GET',
        headers: { Accept: 'text/html, application/json' },
        signal: own,
      });
    });
  }

  close(): Promise<void> {
    return this.#dispatcher.closeAll();
  }

  async #send(
    url: string,
    request: HttpRequest,
    body: { text: string; type: string } | null,
    authorization: string | null,
    signal: AbortSignal,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
    if (authorization) headers.Authorization = authorization;
    if (body) headers['Content-Type'] = body.type;
    if (request.guard === 'csrf') headers['X-CSRF'] = 'x';
    if (request.guard === 'xhr') headers['X-Requested-With'] = 'XMLHttpRequest';
    this.stats.requests += 1;
    // Resource URIs all end in '/', so a redirect means a misconfigured address: this dispatcher never
    // follows one, so credentials never go anywhere else.
    const response = await send(this.#dispatcher, url, {
      method: request.method,
      headers,
      body: body?.text ?? null,
      signal,
    });
    if (response.status === 401) this.stats.challenges += 1;
    return response;
  }

  #staticAuthorization(): string {
    const credentials = this.#credentials;
    if (credentials.kind === 'token') return `Bearer ${credentials.token}`;
    if (credentials.kind === 'basic') {
      return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}`;
    }
    throw new PlugboardError('INTERNAL', 'Digest credentials have no static Authorization header.');
  }

  #authFailed(response: HttpResponse): PlugboardError {
    const credentials = this.#credentials;
    const challenge = response.headers.get('www-authenticate') ?? '';
    if (credentials.kind === 'token') {
      return new PlugboardError('AUTH_FAILED', `${this.#controller} refused the access token.`, undefined, {
        action:
          'Check that the token (client id, a dot, then the secret) is complete and that the client still exists on the controller.',
      });
    }
    if (credentials.kind === 'basic') {
      return new PlugboardError(
        'AUTH_FAILED',
        `${this.#controller} refused user "${credentials.user}" with Basic authentication.`,
        undefined,
        {
          action:
            'Check the password, or use digest (Basic works only when "Allow legacy plaintext login methods" is on).',
        },
      );
    }
    if (challenge && !/digest/i.test(challenge)) {
      return new PlugboardError(
        'AUTH_FAILED',
        `${this.#controller} does not offer digest authentication (it asks for ${challenge.split(/\s/)[0]}).`,
        undefined,
        { action: 'Choose the matching login method.' },
      );
    }
    return new PlugboardError(
      'AUTH_FAILED',
      `Wrong user name or password for ${this.#controller} (user "${credentials.user}").`,
      undefined,
      { action: 'Check both and try again; repeated failures can lock the user out for a while.' },
    );
  }
}

function encodeBody(request: HttpRequest): { text: string; type: string } | null {
  if (request.jsonPatch)
    return { text: JSON.stringify(request.jsonPatch), type: 'application/json-patch+json' };
  if (request.json !== undefined) return { text: JSON.stringify(request.json), type: 'application/json' };
  if (request.form)
    return { text: new URLSearchParams(request.form).toString(), type: 'application/x-www-form-urlencoded' };
  return null;
}

/** Send one request and read its whole answer (at most MAX_BODY_BYTES). */
async function send(
  dispatcher: Dispatcher,
  url: string,
  options: { method: HttpMethod; headers: Record<string, string>; body?: string | null; signal: AbortSignal },
): Promise<HttpResponse> {
  const target = new URL(url);
  const response = await dispatcher.request({
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: options.method,
    // Uncompressed: the answer is read as it comes (fetch asked for gzip and unpacked it).
    headers: { ...options.headers, 'Accept-Encoding': 'identity' },
    body: options.body ?? null,
    signal: options.signal,
  });
  const headers = response.headers;
  return {
    status: response.statusCode,
    headers: {
      // Names come lower-case; a repeated header comes as a list, joined as fetch's Headers.get joins it.
      get: (name) => {
        const value = headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body: await readCapped(response.body),
  };
}

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      body.destroy();
      throw new PlugboardError(
        'DEVICE_ERROR',
        `The answer was larger than ${MAX_BODY_BYTES >> 20} MiB; refusing it.`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
