/**
 * A `plugboard serve` on another machine (`plugboard --service URL`): the link protocol (wire.ts) over
 * ws/wss to its `api` listener's /api/v1/link, authenticated by a bearer token. Over HTTPS the
 * certificate is pinned by its SHA-256 fingerprint when one is given (the service prints it at start),
 * checked before a byte of the request (and so the token) is sent; without one, the usual CA check
 * applies, and a self-signed certificate is refused with a sentence naming --service-fingerprint.
 * The token appears in no error text.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { PlugboardError } from '../shared/errors';
import { linkOver, type CoreLink } from './client';
import { LINK_PROTOCOL, MAX_LINK_MESSAGE, REMOTE_LINK_PATH } from './wire';

export interface RemoteOptions {
  /** The service's bearer token (one of its `name:secret` lines' secret). */
  token: string | undefined;
  /** SHA-256 fingerprint of the service's HTTPS certificate (any case, colons optional). */
  fingerprint?: string | undefined;
  /** How long connecting and the opening handshake may take (default 10 s). */
  handshakeMs?: number;
}

export const TRUST_ACTION =
  'Pass the certificate fingerprint `plugboard serve` printed at start ("api: https://… (TLS certificate SHA-256 …)") with --service-fingerprint (or PLUGBOARD_SERVICE_FINGERPRINT).';

/** Connect to the service at `url` (http[s]://host:port). Rejects with a PlugboardError saying why not. */
export async function connectRemoteCore(url: string, options: RemoteOptions): Promise<CoreLink> {
  const base = parseServiceUrl(url);
  const where = base.origin;
  const handshakeMs = options.handshakeMs ?? 10_000;
  const pinned = pinnedFingerprint(options.fingerprint);
  const secure = base.protocol === 'https:';
  const preconnected = secure && pinned !== null ? await pinnedSocket(base, pinned, handshakeMs) : null;
  const { default: WebSocketClient } = await import('ws');
  const socket = new WebSocketClient(
    `${secure ? 'wss' : 'ws'}://${base.host}${REMOTE_LINK_PATH}`,
    LINK_PROTOCOL,
    {
      maxPayload: MAX_LINK_MESSAGE,
      handshakeTimeout: handshakeMs,
      headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
      followRedirects: false,
      ...(preconnected ? { createConnection: () => preconnected } : {}),
    },
  );
  return new Promise<CoreLink>((resolve, reject) => {
    let settled = false;
    const fail = (error: PlugboardError): void => {
      if (settled) return;
      settled = true;
      socket.on('error', () => undefined);
      socket.terminate();
      reject(error);
    };
    socket.once('unexpected-response', (request: ClientRequest, response: IncomingMessage) => {
      void readMessage(response).then((said) => {
        request.destroy();
        fail(refusal(where, response.statusCode ?? 0, said));
      });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => fail(connectError(where, error)));
    socket.once('open', () => {
      if (settled) return;
      settled = true;
      resolve(linkOver(socket));
    });
  });
}

/** The service's pinned certificate fingerprint, normalised; null when none is given. */
export function pinnedFingerprint(fingerprint: string | null | undefined): string | null {
  const pinned = fingerprint ? normalize(fingerprint) : null;
  if (pinned !== null && pinned.length !== 95)
    throw new PlugboardError(
      'BAD_INPUT',
      'The --service-fingerprint is not a SHA-256 fingerprint (32 hex pairs, like AB:CD:…).',
      undefined,
      { action: TRUST_ACTION },
    );
  return pinned;
}

export function parseServiceUrl(url: string): URL {
  let parsed: URL | null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (
    !parsed ||
    (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') ||
    parsed.username ||
    parsed.password
  )
    throw new PlugboardError(
      'BAD_INPUT',
      `--service wants the address of a \`plugboard serve\` api listener, http[s]://host:port, not ${JSON.stringify(url.slice(0, 80))}.`,
      undefined,
      { action: 'Give it as printed by the service ("api: http://…"), without a user or password in it.' },
    );
  return parsed;
}

/** A TLS connection whose certificate matches `pinned`, before anything is written on it. */
export function pinnedSocket(base: URL, pinned: string, timeoutMs: number): Promise<TLSSocket> {
  const host = base.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host,
      port: Number(base.port || 443),
      ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }),
      rejectUnauthorized: false, // the pin below replaces the CA check; nothing is sent before it
      timeout: timeoutMs,
    });
    socket.once('timeout', () =>
      socket.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    socket.once('error', (error: NodeJS.ErrnoException) => reject(connectError(base.origin, error)));
    socket.once('secureConnect', () => {
      socket.setTimeout(0);
      const seen = socket.getPeerCertificate().fingerprint256 ?? '';
      if (normalize(seen) === pinned) {
        resolve(socket);
        return;
      }
      socket.destroy();
      reject(
        new PlugboardError(
          'TLS_CHANGED',
          // Said the same to the CLI and to a desk's window: the pin is the CLI's --service-fingerprint
          // or the fingerprint a lab was connected with, so the sentence names neither door alone.
          `The certificate of the Plugboard service at ${base.origin} is not the one pinned for it (it shows ${seen}); nothing was sent.`,
          { fingerprint: seen },
          {
            action:
              'Compare with the fingerprint the service printed at start, on its api: line; if its certificate was renewed, give the new one (--service-fingerprint, or connect to the lab again).',
          },
        ),
      );
    });
  });
}

export function connectError(where: string, error: NodeJS.ErrnoException): PlugboardError {
  const code = error.code ?? '';
  if (
    /SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_UNTRUSTED|ERR_TLS_CERT_ALTNAME_INVALID/.test(code)
  )
    return new PlugboardError(
      'TLS_UNTRUSTED',
      `The Plugboard service at ${where} has a certificate this machine does not trust (${code}); nothing was sent.`,
      undefined,
      { action: TRUST_ACTION },
    );
  if (/^Server sent (no|an invalid) subprotocol/.test(error.message))
    return wrongProtocol(where, 'its answer is not the Plugboard link protocol');
  if (/^Invalid WebSocket frame|^Unexpected server response/.test(error.message))
    return wrongProtocol(where, error.message);
  return new PlugboardError(
    'UNREACHABLE',
    `No Plugboard service answered at ${where} (${error.message || code}).`,
    undefined,
    {
      cause: error,
      action:
        'Check that `plugboard serve` runs there with its api listener, and the address and port, or leave out --service.',
    },
  );
}

function wrongProtocol(where: string, why: string): PlugboardError {
  return new PlugboardError(
    'NOT_A_CONTROLLER',
    `Something answered at ${where}, but not a Plugboard service's remote link: ${why}.`,
    undefined,
    {
      action:
        'Give --service the service\'s api listener address ("api: http://…" as it printed at start); a Plugboard without /api/v1/link is too old.',
    },
  );
}

function refusal(where: string, status: number, said: string | null): PlugboardError {
  const detail = said ? ` It said: ${said}` : '';
  if (status === 401)
    return new PlugboardError(
      'AUTH_FAILED',
      `The Plugboard service at ${where} refused the token.${detail}`,
      undefined,
      {
        action:
          "Give one of the service's tokens with PLUGBOARD_SERVICE_TOKEN or --service-token-file PATH (the secret after the colon of a name:secret line of its --token-file).",
      },
    );
  if (status === 403)
    return new PlugboardError(
      'FORBIDDEN',
      `The Plugboard service at ${where} refused the link.${detail}`,
      undefined,
      {
        action:
          'Ask its operator to allow your network (--allow) and this address (--host-name), and to give it tokens.',
      },
    );
  return wrongProtocol(where, `HTTP ${status}${said ? `: ${said}` : ''}`);
}

/** The `error.message` of a JSON error answer (at most 300 characters), or null. */
async function readMessage(response: IncomingMessage): Promise<string | null> {
  let text = '';
  try {
    for await (const chunk of response) {
      text += String(chunk);
      if (text.length > 4096) break;
    }
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === 'string' ? parsed.error.message.slice(0, 300) : null;
  } catch {
    return null;
  }
}

export function normalize(fingerprint: string): string {
  const hex = fingerprint.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return hex.match(/.{1,2}/g)?.join(':') ?? '';
}
