/**
 * Signing in through the lab's identity provider (OpenID Connect) on the `api` listener; the service is
 * the relying party (oidc-relying-party.ts), the browser carries the person there and back:
 *
 *   GET  /api/v1/oidc/start?client=web[&challenge=…]      302 to the provider
 *   GET  /api/v1/oidc/start?client=desk&redirect=http://127.0.0.1:PORT/…&challenge=<S256 of a verifier>
 *   GET  /api/v1/oidc/callback?code=…&state=…            the provider's answer: the claims are mapped to an
 *        account and role, then 302 to `/sign-in#oidc=<one-time code>` (web) or `<redirect>?code=<code>`
 *        (desk); a refusal goes the same way as `#oidc-error=<sentence>` or `?error=access_denied&error_description=<sentence>`
 *   POST /api/v1/oidc/exchange {"code", "verifier"?}     → what POST /api/v1/sign-in answers: {token, expiresAt, account}
 *
 * A desk's redirect must be a loopback receiver on the desk's own machine (RFC 8252): http://127.0.0.1
 * or http://[::1] with a port; anything else is refused, so a code can never be sent to another host.
 * A desk's code is bound to its PKCE challenge: only the verifier's holder can exchange it; a web page's
 * too when it gives one (recommended: a code then signs in only the tab that started). Codes are good
 * once, for a minute (oidc-logins.ts). The session crosses the network only inside TLS, as a password does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityDoor } from '../../src-preload/model';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { readJsonBody } from './api-http';
import { SignInRefusal } from './api-sign-in';
import type { ListenerContext } from './listener';
import { sendJson } from './listener';
import { isLoopback, plainAddress } from './network';
import type { OidcClient } from './oidc-logins';
import type { OidcSignIn } from './oidc-service';

const PREFIX = '/api/v1/oidc/';

/** What `/api/v1/status` says about signing in, before anyone has. */
export function signInOffer(context: ListenerContext): {
  password: boolean;
  provider: { label: string } | null;
} {
  return {
    password: context.core.accounts !== null,
    provider: context.oidc ? { label: context.oidc.party.label } : null,
  };
}

/** Whether `pathname` is one of these routes. */
export function isOidcPath(pathname: string): boolean {
  return pathname.startsWith(PREFIX);
}

export async function routeOidc(
  context: ListenerContext,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const oidc = context.oidc;
  const step = url.pathname.slice(PREFIX.length);
  const method = request.method ?? 'GET';
  const expected = step === 'exchange' ? 'POST' : 'GET';
  if (!['start', 'callback', 'exchange'].includes(step))
    throw new PlugboardError(
      'NOT_FOUND',
      `No such API path ${url.pathname.slice(0, 80)}: see /api/v1/oidc/start.`,
    );
  if (method !== expected)
    throw new SignInRefusal(
      405,
      new PlugboardError('BAD_INPUT', `${method} is not allowed here; use ${expected}.`),
      {
        Allow: expected,
      },
    );
  if (!oidc || !context.core.accounts)
    throw new PlugboardError(
      'NOT_FOUND',
      'This lab service signs in with no identity provider: sign in with a name and password.',
      undefined,
      {
        action: 'An administrator may give the service one (plugboard serve --oidc-issuer …).',
      },
    );
  const address = plainAddress(request.socket.remoteAddress ?? 'unknown');
  if (step === 'start') return start(context, oidc, url, request, response, address);
  if (step === 'callback') return callback(context, oidc, url, response, address);
  return exchange(context, oidc, request, response, address);
}

async function start(
  context: ListenerContext,
  oidc: OidcSignIn,
  url: URL,
  request: IncomingMessage,
  response: ServerResponse,
  address: string,
): Promise<void> {
  const client = clientOf(url.searchParams);
  const origin = oidc.advertise ?? `${context.tls ? 'https' : 'http'}://${request.headers.host ?? ''}`;
  try {
    const { url: provider, checks } = await oidc.party.start(`${origin}/api/v1/oidc/callback`);
    oidc.logins.add({ client, checks, address });
    redirect(response, provider.href);
  } catch (error) {
    // The provider cannot be reached, or too many logins are under way: the client hears it where it
    // waits (the sign-in page, the desk's receiver) rather than from a page of JSON in the browser.
    if (!isPlugboardError(error)) throw error;
    if (error.code === 'UNREACHABLE') context.log(`oidc: ${error.message}`);
    redirect(
      response,
      answerUrl(client, { error: error.action ? `${error.message} ${error.action}` : error.message }),
    );
  }
}

async function callback(
  context: ListenerContext,
  oidc: OidcSignIn,
  url: URL,
  response: ServerResponse,
  address: string,
): Promise<void> {
  const state = url.searchParams.get('state');
  const login = state ? oidc.logins.take(state) : null;
  if (!login) {
    response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(
      'This sign-in is unknown or expired (a sign-in through the identity provider must end within 10 minutes of its start). Start it again from Plugboard.\n',
    );
    return;
  }
  const door = doorOf(login.client);
  try {
    const identity = await oidc.party.finish(url.search, login.checks);
    const account = await context.core.accounts!.providerSignIn(identity, address, door);
    const code = oidc.logins.code(account.name, login.client);
    redirect(response, answerUrl(login.client, { code }));
  } catch (error) {
    if (!isPlugboardError(error)) throw error;
    if (error.code === 'UNREACHABLE' || error.code === 'INTERNAL') context.log(`oidc: ${error.message}`);
    const sentence = error.action ? `${error.message} ${error.action}` : error.message;
    redirect(response, answerUrl(login.client, { error: sentence }));
  }
}

async function exchange(
  context: ListenerContext,
  oidc: OidcSignIn,
  request: IncomingMessage,
  response: ServerResponse,
  address: string,
): Promise<void> {
  if (!context.tls && !isLoopback(address))
    throw new SignInRefusal(
      403,
      new PlugboardError(
        'FORBIDDEN',
        'Collect the session over HTTPS: this listener is plain HTTP, so only a client on the service’s machine may be given one.',
        undefined,
        {
          action:
            'Ask the service’s operator to give the api listener a certificate (--tls-cert and --tls-key).',
        },
      ),
    );
  const { code, verifier } = await readExchange(request);
  let redeemed;
  try {
    redeemed = oidc.logins.redeem(code, verifier);
  } catch (error) {
    if (isPlugboardError(error)) throw new SignInRefusal(401, error);
    throw error;
  }
  try {
    const signed = await context.core.accounts!.openSession(
      redeemed.account,
      address,
      doorOf(redeemed.client),
    );
    sendJson(response, 200, signed, { 'Cache-Control': 'no-store' });
  } catch (error) {
    if (isPlugboardError(error) && error.code === 'AUTH_FAILED') throw new SignInRefusal(403, error);
    throw error;
  }
}

function doorOf(client: OidcClient): ActivityDoor {
  return client.kind === 'web' ? 'web' : 'json-api';
}

/** Where the browser goes with the outcome: the web window's sign-in page, or the desk's receiver. */
function answerUrl(client: OidcClient, outcome: { code: string } | { error: string }): string {
  if (client.kind === 'web')
    return 'code' in outcome
      ? `/sign-in#oidc=${outcome.code}`
      : `/sign-in#oidc-error=${encodeURIComponent(outcome.error)}`;
  const url = new URL(client.redirect);
  if ('code' in outcome) url.searchParams.set('code', outcome.code);
  else {
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('error_description', outcome.error);
  }
  return url.href;
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { Location: location, 'Cache-Control': 'no-store' });
  response.end();
}

/** `client=web` (a challenge optional), or `client=desk` with a loopback redirect and a challenge; else refused. */
function clientOf(params: URLSearchParams): OidcClient {
  const kind = params.get('client');
  if (kind === 'web') {
    const challenge = params.get('challenge');
    if (challenge === null) return { kind: 'web' };
    return { kind: 'web', challenge: checkedChallenge(challenge) };
  }
  if (kind !== 'desk')
    throw new SignInRefusal(
      400,
      new PlugboardError(
        'BAD_INPUT',
        'Say which client signs in: ?client=web, or ?client=desk with redirect= and challenge=.',
      ),
    );
  const redirect = params.get('redirect') ?? '';
  if (!isLoopbackRedirect(redirect))
    throw new SignInRefusal(
      400,
      new PlugboardError(
        'BAD_INPUT',
        `Refused the redirect ${JSON.stringify(redirect.slice(0, 100))}: a desk's sign-in comes back only to a receiver on its own machine, http://127.0.0.1:PORT/… or http://[::1]:PORT/….`,
      ),
    );
  return { kind: 'desk', redirect, challenge: checkedChallenge(params.get('challenge') ?? '') };
}

function checkedChallenge(challenge: string): string {
  if (/^[A-Za-z0-9_-]{43}$/.test(challenge)) return challenge;
  throw new SignInRefusal(
    400,
    new PlugboardError(
      'BAD_INPUT',
      'Give the PKCE challenge: challenge=<base64url of the SHA-256 of a verifier>, 43 characters.',
    ),
  );
}

/** http://127.0.0.1:PORT/… or http://[::1]:PORT/… with nothing else (RFC 8252's loopback redirect). */
export function isLoopbackRedirect(text: string): boolean {
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\]):\d{1,5}(\/[^#\s]*)?$/.test(text) || !URL.canParse(text))
    return false;
  const url = new URL(text);
  return (
    (url.hostname === '127.0.0.1' || url.hostname === '[::1]') &&
    url.port !== '' &&
    !url.username &&
    !url.password
  );
}

async function readExchange(request: IncomingMessage): Promise<{ code: string; verifier: string | null }> {
  const parsed: { code?: unknown; verifier?: unknown } = await readJsonBody(request);
  const { code, verifier } = parsed;
  if (
    typeof code === 'string' &&
    code.length <= 100 &&
    (verifier === undefined || (typeof verifier === 'string' && verifier.length <= 200))
  )
    return { code, verifier: verifier ?? null };
  throw new PlugboardError(
    'BAD_INPUT',
    'Send a JSON body {"code": "<the one-time code>"} (with "verifier" for a desk\'s code).',
  );
}
