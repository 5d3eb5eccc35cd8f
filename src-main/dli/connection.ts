/**
 * Everything one client shares between its calls: the transport, the controller's queue, the time each
 * request may take, what was learnt about the controller (firmware, outlet count and names), and the
 * mapping of network failures to errors.
 */
import { DeadlineExceeded } from './deadline';
import { PlugboardError, isPlugboardError } from '../shared/errors';
import { requireFeature } from './firmware';
import { isJsonBody, looksLikeDli, type RequestContext } from './http-errors';
import { queueFor } from './request-queue';
import { Transport, type HttpRequest, type HttpResponse } from './transport';
import type { CallOptions, ClientStats, DliClientOptions, Priority } from './types';
import { outletLabel } from '../../src-preload/words';

const DEFAULT_TIMEOUT_MS = 10_000;

/** The view of a connection inside one call. */
export interface Scope {
  readonly signal: AbortSignal;
  /** One exchange (queued unless this scope already holds the controller). */
  request(request: HttpRequest): Promise<HttpResponse>;
  /** Hold the controller for several exchanges that must not interleave with others (e.g. find then delete). */
  exclusive<T>(work: (scope: Scope) => Promise<T>): Promise<T>;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  ENOTFOUND: 'no such host name',
  EAI_AGAIN: 'host name lookup failed',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CLOSED: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

export class Connection {
  readonly controller: string;
  readonly origin: string;
  /** Who is logged in, for messages: `User "bob"` or `The access token`. */
  readonly who: string;
  /** The end of "Only administrators can …, and …": `user "bob" is not one`. */
  readonly notAdmin: string;
  readonly #transport: Transport;
  readonly #timeoutMs: number;
  readonly #token: boolean;
  /** Firmware version once read (or given). */
  firmware: string | null;
  /** Outlet count once outlets were read. */
  outletCount: number | null = null;
  /** Outlet names by 1-based number, from the last outlet read (for messages). */
  outletNames = new Map<number, string>();
  /** SHA-256 fingerprint of the last certificate seen (HTTPS). */
  certificate: string | null = null;

  constructor(options: DliClientOptions) {
    const url = parseBaseUrl(options.url);
    this.origin = url.origin;
    this.controller = options.name?.trim() || url.host;
    const token = options.credentials.kind === 'token';
    this.#token = token;
    const user = token ? '' : (options.credentials as { user: string }).user;
    this.who = token ? 'The access token' : `User "${user}"`;
    this.notAdmin = token ? 'this access token has no administrator rights' : `user "${user}" is not one`;
    this.firmware = options.firmware ?? null;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (options.credentials.kind === 'token' && !/^\S+$/.test(options.credentials.token)) {
      throw new PlugboardError('BAD_INPUT', 'The access token is empty or contains spaces.', undefined, {
        action: 'Paste it exactly as issued.',
      });
    }
    this.#transport = new Transport({
      origin: this.origin,
      credentials: options.credentials,
      controller: this.controller,
      fingerprint: options.fingerprint ?? null,
      ...(options.beforeWrite ? { beforeWrite: options.beforeWrite } : {}),
      onCertificate: (fingerprint) => {
        this.certificate = fingerprint;
      },
    });
  }

  get stats(): ClientStats {
    return { ...this.#transport.stats };
  }

  /** "outlet 3 (Lab PSU)" */
  outletLabel(outlet: number): string {
    return outletLabel(outlet, this.outletNames.get(outlet));
  }

  context(action: string, extra: Partial<RequestContext> = {}): RequestContext {
    return { controller: this.controller, action, who: this.who, ...extra };
  }

  /**
   * Run one client call under the caller's signal; every failure leaves as a PlugboardError. Each request
   * of the call may take `timeoutMs` from when it leaves the controller's queue (a digest challenge's
   * retry gets its own): waiting behind other requests never makes a call time out.
   */
  async run<T>(options: CallOptions | undefined, work: (scope: Scope) => Promise<T>): Promise<T> {
    // Access tokens came with firmware 1.10: with an older firmware known, fail before sending anything.
    if (this.#token && this.firmware !== null) requireFeature(this.firmware, 'tokens', this.controller);
    const timeoutMs = options?.timeoutMs ?? this.#timeoutMs;
    // One signal per call, aborted by the caller's signal. Linked by hand, not with AbortSignal.any: on
    // Node 20 every combined signal stays reachable forever (nodejs/node#54614, #55351), which a poller
    // calling several times a second turns into a steady leak.
    const call = new AbortController();
    const caller = options?.signal;
    const forward = (): void => call.abort(caller?.reason);
    if (caller?.aborted) forward();
    else caller?.addEventListener('abort', forward, { once: true });
    try {
      return await work(this.#scope(call.signal, options?.priority ?? 'interactive', false, timeoutMs));
    } catch (error) {
      if (caller?.aborted) {
        throw new PlugboardError('CANCELLED', `The request to ${this.controller} was cancelled.`, undefined, {
          cause: error,
        });
      }
      const deadline = findDeadline(error);
      if (deadline) throw this.#timeout(deadline, error);
      throw this.#networkFailure(error);
    } finally {
      caller?.removeEventListener('abort', forward);
    }
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  #scope(signal: AbortSignal, priority: Priority, holding: boolean, timeoutMs: number): Scope {
    const inSlot = (): Scope => this.#scope(signal, priority, true, timeoutMs);
    const exchange = (request: HttpRequest): Promise<HttpResponse> =>
      this.#exchange(request, signal, timeoutMs);
    return {
      signal,
      request: (request) =>
        holding ? exchange(request) : queueFor(this.origin).run(() => exchange(request), priority, signal),
      exclusive: (work) =>
        holding ? work(inSlot()) : queueFor(this.origin).run(() => work(inSlot()), priority, signal),
    };
  }

  async #exchange(request: HttpRequest, signal: AbortSignal, timeoutMs: number): Promise<HttpResponse> {
    const response = await this.#transport.exchange(request, signal, timeoutMs);
    if (response.status === 404 && !isJsonBody(response)) await this.#explainMissingApi(signal, timeoutMs);
    if (response.status === 403 && !isJsonBody(response)) await this.#explainForbiddenPage(signal, timeoutMs);
    return response;
  }

  /**
   * A 403 that is a web page, not the API's own answer: a controller still asks for a login at /restapi/
   * (or its pages say Digital Loggers), so the 403 stays a permissions problem; anything else (a web
   * server or proxy forbidding the path) is not a controller, whatever the user's rights.
   */
  async #explainForbiddenPage(signal: AbortSignal, timeoutMs: number): Promise<void> {
    const root = await this.#transport.probe('/restapi/', signal, timeoutMs);
    if (root.status === 401 || (root.status < 300 && isJsonBody(root)) || looksLikeDli(root)) return;
    if (looksLikeDli(await this.#transport.probe('/', signal, timeoutMs))) return;
    throw new PlugboardError(
      'NOT_A_CONTROLLER',
      `${this.origin} answers 403 Forbidden, but it is not a power controller with the REST-style API: it never asks for a login and its pages are not a Digital Loggers controller's.`,
      { status: 403 },
      { action: 'Check the address and port; a controller’s own page says “Digital Loggers”.' },
    );
  }

  /**
   * TIMEOUT. A state-changing request whose answer never came may still have been carried out: its
   * detail says so (`unanswered`), and the Core waits for a poll to tell rather than report a failure.
   */
  #timeout(deadline: DeadlineExceeded, error: unknown): PlugboardError {
    const { timeoutMs, method } = deadline;
    const unanswered = method !== 'GET';
    return new PlugboardError(
      'TIMEOUT',
      `${this.controller} did not answer within ${formatSeconds(timeoutMs)}.`,
      unanswered ? { timeoutMs, unanswered } : { timeoutMs },
      { cause: error, action: 'Check that it is powered and on the network; it may be busy or rebooting.' },
    );
  }

  /**
   * A web page instead of the API's own 404: either "Allow REST-style API" is off (the API answers
   * nothing, the login page still looks like a DLI controller), or this is not a controller at all.
   * Runs inside the caller's queue slot.
   */
  async #explainMissingApi(signal: AbortSignal, timeoutMs: number): Promise<void> {
    const root = await this.#transport.probe('/restapi/', signal, timeoutMs);
    if (root.status === 401 || (root.status >= 200 && root.status < 300)) return;
    const page = await this.#transport.probe('/', signal, timeoutMs);
    if (looksLikeDli(page)) {
      throw new PlugboardError(
        'API_DISABLED',
        `The REST-style API is switched off on ${this.controller}.`,
        undefined,
        { action: `Turn on "Allow REST-style API" on the controller's External APIs page, then try again.` },
      );
    }
    throw new PlugboardError(
      'NOT_A_CONTROLLER',
      `${this.origin} answers, but not like a power controller with the REST-style API.`,
      undefined,
      { action: 'Check the address and port.' },
    );
  }

  /** "Bench A at http://10.0.0.5" or just the address when the controller has no name of its own. */
  #where(): string {
    return this.controller === new URL(this.origin).host
      ? this.origin
      : `${this.controller} at ${this.origin}`;
  }

  #networkFailure(error: unknown): PlugboardError {
    if (isPlugboardError(error)) return error;
    const cause = findCause(error);
    if (isPlugboardError(cause)) return cause;
    const code = (cause as { code?: unknown } | undefined)?.code;
    const codeText = typeof code === 'string' ? code : '';
    if (
      /SSL|TLS|EPROTO|CERT/i.test(codeText) ||
      /SSL|TLS/i.test(String((cause as Error | undefined)?.message))
    ) {
      return new PlugboardError(
        'UNREACHABLE',
        `${this.controller} did not complete a secure (HTTPS) connection at ${this.origin}.`,
        { reason: codeText || 'tls' },
        { cause: error, action: 'If the controller does not use HTTPS, use an http:// address.' },
      );
    }
    const words = NETWORK_CODES[codeText];
    const hint = this.origin.startsWith('http:')
      ? ' If the controller only serves HTTPS, use an https:// address.'
      : '';
    return new PlugboardError(
      'UNREACHABLE',
      `Cannot reach ${this.#where()}${words ? ` (${words})` : ''}.`,
      { reason: codeText || 'network' },
      {
        cause: error,
        action: `Check the address and that the controller is powered and on the network.${codeText === 'UND_ERR_SOCKET' ? hint : ''}`,
      },
    );
  }
}

/** The deadline that cut a request short, anywhere in the chain of causes. */
function findDeadline(error: unknown): DeadlineExceeded | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof DeadlineExceeded) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function findCause(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth++) {
    const next = (current as { cause?: unknown } | null)?.cause;
    if (next === undefined || next === null) return current;
    if (isPlugboardError(next)) return next;
    current = next;
  }
  return current;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Parse `http[s]://host[:port]` (a path is ignored); BAD_INPUT for anything else. */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new PlugboardError('BAD_INPUT', `"${text}" is not an address.`, undefined, {
      action: 'Use one like http://192.168.0.100.',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PlugboardError('BAD_INPUT', `"${text}" must start with http:// or https://.`);
  }
  if (url.username || url.password) {
    throw new PlugboardError('BAD_INPUT', 'The address contains a user name or password.', undefined, {
      action: 'Put the user name and password in their own fields, not in the address.',
    });
  }
  return url;
}
