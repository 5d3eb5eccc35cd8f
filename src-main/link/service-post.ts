/**
 * One JSON POST (sign-in and sign-out) or GET (`/api/v1/status`) to a `plugboard serve` api listener, with the same trust as the
 * remote link (remote.ts): over HTTPS the certificate is pinned by its fingerprint when one is given,
 * checked before a byte of the request (and so a password or token) is sent; without one, the usual CA
 * check. The body and the token appear in no error text.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isPlugboardError } from '../shared/errors';
import { connectError, parseServiceUrl, pinnedFingerprint, pinnedSocket } from './remote';
import type { ServiceAddress } from './service-address';

export interface ServicePost {
  /** SHA-256 fingerprint of the service's HTTPS certificate (any case, colons optional). */
  fingerprint?: string | undefined;
  /** Sent as `Authorization: Bearer …`. */
  token?: string | undefined;
  body?: unknown;
  /** How long connecting and the answer may take (default 10 s). */
  timeoutMs?: number;
  /** GET reads (no body is sent); POST by default. */
  method?: 'GET' | 'POST';
}

export interface ServiceAnswer {
  status: number;
  /** The parsed JSON answer, or null when it was not JSON. */
  json: unknown;
}

const MAX_ANSWER = 64 * 1024;

/** POST `path` at the service `url`; rejects (UNREACHABLE, TLS_*) only when no answer came. */
export function postToService(url: string, path: string, options: ServicePost): Promise<ServiceAnswer> {
  return askService(options.method ?? 'POST', url, path, options);
}

/** GET `path` at the service `url` (its `/api/v1/status`), with the same trust as a POST. */
export function getFromService(
  url: string,
  path: string,
  options: Omit<ServicePost, 'body'>,
): Promise<ServiceAnswer> {
  return askService('GET', url, path, options);
}

async function askService(
  method: 'GET' | 'POST',
  url: string,
  path: string,
  options: ServicePost,
): Promise<ServiceAnswer> {
  const base = parseServiceUrl(url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pinned = pinnedFingerprint(options.fingerprint);
  const secure = base.protocol === 'https:';
  const socket = secure && pinned !== null ? await pinnedSocket(base, pinned, timeoutMs) : null;
  const payload = options.body === undefined ? '' : JSON.stringify(options.body);
  const request = (secure ? httpsRequest : httpRequest)(new URL(path, base), {
    method,
    headers: {
      ...(method === 'POST'
        ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
        : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    timeout: timeoutMs,
    ...(socket ? { createConnection: () => socket } : {}),
  });
  return new Promise<ServiceAnswer>((resolve, reject) => {
    request.once('timeout', () =>
      request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    request.once('error', (error: NodeJS.ErrnoException) => reject(connectError(base.origin, error)));
    request.once('response', (response: IncomingMessage) => {
      void readJson(response).then((json) => resolve({ status: response.statusCode ?? 0, json }));
    });
    request.end(payload);
  });
}

async function readJson(response: IncomingMessage): Promise<unknown> {
  let text = '';
  try {
    for await (const chunk of response) {
      text += String(chunk);
      if (text.length > MAX_ANSWER) break;
    }
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The `error` (code, message, action) of a JSON error answer, or null. */
export function answerError(json: unknown): { code: string; message: string; action?: string } | null {
  const error = (json as { error?: { code?: unknown; message?: unknown; action?: unknown } } | null)?.error;
  if (typeof error?.message !== 'string') return null;
  return {
    code: typeof error.code === 'string' ? error.code : 'FAILED',
    message: error.message.slice(0, 500),
    ...(typeof error.action === 'string' ? { action: error.action.slice(0, 500) } : {}),
  };
}

/** Refused, no route, reset or timed out before anything was answered: nothing was done there. */
export function didNotAnswer(error: unknown): boolean {
  return isPlugboardError(error) && (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT');
}

/**
 * POST `path` to the first of `addresses` that answers and does not refuse as a standby. `skipped`
 * hears of each address passed over for a later one (the CLI notes it on stderr; a desk says nothing).
 */
export async function postToLab(
  addresses: readonly ServiceAddress[],
  path: string,
  options: { token?: string; body?: unknown },
  skipped?: (address: ServiceAddress, why: { standby: true } | { error: Error }) => void,
): Promise<{ answer: ServiceAnswer; address: ServiceAddress }> {
  let last: unknown = null;
  for (const address of addresses) {
    try {
      const answer = await postToService(address.url, path, { ...options, fingerprint: address.fingerprint });
      if (answerError(answer.json)?.code === 'STANDBY' && address !== addresses.at(-1)) {
        skipped?.(address, { standby: true });
        continue;
      }
      return { answer, address };
    } catch (error) {
      if (!didNotAnswer(error)) throw error;
      last = error;
      if (address !== addresses.at(-1)) skipped?.(address, { error: error as Error });
    }
  }
  throw last;
}
