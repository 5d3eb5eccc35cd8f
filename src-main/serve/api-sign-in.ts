/**
 * Sign-in and sign-out on the `api` listener:
 *
 *   POST /api/v1/sign-in   {"name": …, "password": …}  →  {"token", "expiresAt", "account": {name, displayName, role, scope}}
 *   POST /api/v1/sign-out  (Authorization: Bearer <the session's token>)  →  {"signedOut": true}
 *
 * The token is shown this once; send it as `Authorization: Bearer <token>` wherever a token goes (the
 * JSON API, the remote link). `expiresAt` is when it ends if unused (each use pushes it on, up to a week
 * after sign-in). A password crosses the network only inside TLS: over plain HTTP, only a client on this
 * machine may sign in. A wrong name or password is 401, a wait or a lock 429 with Retry-After (the
 * sentence says until when), a disabled account 403.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PlugboardError } from '../shared/errors';
import { readJsonBody } from './api-http';
import type { ListenerContext } from './listener';
import { sendJson } from './listener';
import { isLoopback, plainAddress } from './network';
import { bearerSecret } from './sessions';

/** A refusal with its HTTP status and headers (the API's error path sends it). */
export class SignInRefusal extends PlugboardError {
  constructor(
    readonly status: number,
    error: PlugboardError,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.code, error.message, error.detail, error.action ? { action: error.action } : {});
  }
}

export async function signIn(
  context: ListenerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const accounts = context.core.accounts;
  const address = plainAddress(request.socket.remoteAddress ?? 'unknown');
  if (!accounts) throw new PlugboardError('NOT_FOUND', 'This service keeps no accounts to sign in to.');
  if (!context.tls && !isLoopback(address))
    throw new SignInRefusal(
      403,
      new PlugboardError(
        'FORBIDDEN',
        'Sign in over HTTPS: this listener is plain HTTP, so only a client on the service’s machine may send a password to it.',
        undefined,
        {
          action:
            'Ask the service’s operator to give the api listener a certificate (--tls-cert and --tls-key).',
        },
      ),
    );
  const { name, password } = await readCredentials(request);
  try {
    const signed = await accounts.signIn(name, password, address, 'json-api');
    sendJson(response, 200, signed, { 'Cache-Control': 'no-store' });
  } catch (error) {
    if (!(error instanceof PlugboardError) || error.code !== 'AUTH_FAILED') throw error;
    const retry = error.detail?.retryAfterSeconds;
    if (typeof retry === 'number') throw new SignInRefusal(429, error, { 'Retry-After': String(retry) });
    throw new SignInRefusal(error.detail?.disabled === true ? 403 : 401, error);
  }
}

export async function signOut(
  context: ListenerContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const secret = bearerSecret(request);
  const address = plainAddress(request.socket.remoteAddress ?? 'unknown');
  const ended = secret !== null && (await context.core.accounts?.signOut(secret, address, 'json-api'));
  if (!ended)
    throw new SignInRefusal(
      401,
      new PlugboardError(
        'AUTH_FAILED',
        'Send the session to end as "Authorization: Bearer <token>"; this one is not signed in (it may have ended already).',
      ),
    );
  sendJson(response, 200, { signedOut: true });
}

async function readCredentials(request: IncomingMessage): Promise<{ name: string; password: string }> {
  const parsed: { name?: unknown; password?: unknown } = await readJsonBody(request);
  if (typeof parsed.name === 'string' && typeof parsed.password === 'string' && parsed.name.length <= 64)
    return { name: parsed.name, password: parsed.password };
  throw new PlugboardError('BAD_INPUT', 'Send a JSON body {"name": "<account>", "password": "<password>"}.');
}
