/**
 * Signing a desk or the CLI in to a lab service through the lab's identity provider, in the system
 * browser (OAuth for native apps, RFC 8252): a receiver listens on 127.0.0.1 on a port of its own; the
 * browser is opened at the service's `/api/v1/oidc/start?client=desk` with that receiver as the redirect
 * and the S256 challenge of a verifier made here; the person signs in at the provider; the service sends
 * the browser back to the receiver with a one-time code, which is exchanged, with the verifier, over the
 * same pinned connection as a password sign-in (service-post.ts). The browser's tab is answered with a
 * short page saying how it went.
 *
 * The code is useless without the verifier, which never leaves this process; the receiver answers only
 * its own unguessable path, and only once. It stops when the sign-in ends, when the caller's signal
 * aborts, or after `timeoutMs` (default 5 minutes).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Role, Scope } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import { answerError, postToService } from './service-post';

export interface ProviderService {
  /** The service's api listener, `https://host:port`. */
  url: string;
  /** Its certificate's SHA-256 fingerprint, pinned for every request made here. */
  fingerprint?: string | undefined;
}

export interface ProviderSignInOptions {
  signal?: AbortSignal;
  /** How long the person has to sign in at the provider (default 5 minutes). */
  timeoutMs?: number;
}

/** What a sign-in gives, as `POST /api/v1/sign-in` answers (the token under the name `session`). */
export interface ProviderSignedIn {
  session: string;
  expiresAt: number;
  account: { name: string; displayName: string; role: Role; scope: Scope };
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export async function signInWithProvider(
  service: ProviderService,
  openBrowser: (url: string) => Promise<void>,
  options: ProviderSignInOptions = {},
): Promise<ProviderSignedIn> {
  await assertProvider(service);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const receiver = await listen();
  try {
    const start = new URL('/api/v1/oidc/start', service.url);
    start.searchParams.set('client', 'desk');
    start.searchParams.set('redirect', receiver.redirect);
    start.searchParams.set('challenge', challenge);
    const arrival = receiver.arrival(options);
    await openBrowser(start.href);
    const { params, tab } = await arrival;
    const code = params.get('code');
    if (!code) {
      const why =
        params.get('error_description') ??
        `The identity provider answered ${params.get('error') ?? 'nothing'}.`;
      answerTab(tab, 'Not signed in', why);
      throw new PlugboardError('AUTH_FAILED', why.slice(0, 500));
    }
    try {
      const signed = await exchange(service, code, verifier);
      answerTab(
        tab,
        'Signed in',
        `Signed in to Plugboard as ${signed.account.displayName} (${signed.account.role}). You may close this tab.`,
      );
      return signed;
    } catch (error) {
      answerTab(tab, 'Not signed in', error instanceof Error ? error.message : String(error));
      throw error;
    }
  } finally {
    receiver.close();
  }
}

/** The service offers a provider; else a sentence before any browser opens. */
async function assertProvider(service: ProviderService): Promise<void> {
  const answer = await postToService(service.url, '/api/v1/status', {
    method: 'GET',
    fingerprint: service.fingerprint,
  });
  const provider = (answer.json as { signIn?: { provider?: { label?: unknown } | null } } | null)?.signIn
    ?.provider;
  if (answer.status === 200 && typeof provider?.label === 'string') return;
  const refused = answerError(answer.json);
  if (refused)
    throw new PlugboardError(refused.code === 'STANDBY' ? 'STANDBY' : 'UNREACHABLE', refused.message);
  throw new PlugboardError(
    'NOT_FOUND',
    `The lab service at ${service.url} offers no sign-in through an identity provider.`,
    undefined,
    { action: 'Sign in with an account name and password, or ask its administrator to add one.' },
  );
}

async function exchange(service: ProviderService, code: string, verifier: string): Promise<ProviderSignedIn> {
  const answer = await postToService(service.url, '/api/v1/oidc/exchange', {
    fingerprint: service.fingerprint,
    body: { code, verifier },
  });
  const json = answer.json as { token?: unknown; expiresAt?: unknown; account?: ProviderSignedIn['account'] };
  if (answer.status === 200 && typeof json.token === 'string' && json.account)
    return { session: json.token, expiresAt: Number(json.expiresAt), account: json.account };
  const refused = answerError(answer.json);
  throw new PlugboardError(
    refused?.code === 'FORBIDDEN' ? 'FORBIDDEN' : 'AUTH_FAILED',
    refused?.message ?? `The service at ${service.url} answered the sign-in with HTTP ${answer.status}.`,
    undefined,
    refused?.action ? { action: refused.action } : {},
  );
}

interface Receiver {
  redirect: string;
  arrival(options: ProviderSignInOptions): Promise<{ params: URLSearchParams; tab: ServerResponse }>;
  close(): void;
}

/** The loopback receiver: its own random path, answering the first arrival there and nothing else. */
async function listen(): Promise<Receiver> {
  const path = `/plugboard-sign-in/${randomBytes(16).toString('base64url')}`;
  let arrived: ((value: { params: URLSearchParams; tab: ServerResponse }) => void) | null = null;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path || !arrived) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not here.\n');
      return;
    }
    const take = arrived;
    arrived = null;
    take({ params: url.searchParams, tab: response });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    redirect: `http://127.0.0.1:${port}${path}`,
    arrival: ({ signal, timeoutMs = DEFAULT_TIMEOUT_MS }) =>
      new Promise((resolve, reject) => {
        const stop = (error: PlugboardError) => {
          arrived = null;
          clearTimeout(timer);
          reject(error);
        };
        const timer = setTimeout(
          () =>
            stop(
              new PlugboardError(
                'TIMEOUT',
                `Nobody finished signing in at the identity provider within ${Math.round(timeoutMs / 1000)} s.`,
                undefined,
                { action: 'Sign in again, and finish in the browser window it opens.' },
              ),
            ),
          timeoutMs,
        );
        const onAbort = () => stop(new PlugboardError('CANCELLED', 'The sign-in was cancelled.'));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        arrived = (value) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        };
      }),
    // The tab's answer is sent with `Connection: close`: once written, nothing is left open.
    close: () => {
      server.close();
      server.closeIdleConnections();
    },
  };
}

function answerTab(tab: ServerResponse, title: string, sentence: string): void {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  tab.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'close',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  tab.end(
    `<!doctype html><meta charset="utf-8"><title>Plugboard: ${escape(title)}</title><body style="font-family:sans-serif;margin:3em"><h1>${escape(title)}</h1><p>${escape(sentence)}</p></body>`,
  );
}
