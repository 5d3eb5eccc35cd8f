import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { excerpt } from './log-limit';
import { SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from './socket-protocol';

export { SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX };

/**
 * Who may use the web shell: whoever holds this run's token, and only by presenting it.
 *
 * The token comes once in the printed URL. The page's script (page/web-preload.ts) takes it out of the
 * address, keeps it in the tab's sessionStorage and offers it as a WebSocket subprotocol when it
 * connects: `Sec-WebSocket-Protocol: plugboard.v1, plugboard.token.<token>`. There is no cookie and
 * no other credential a browser would attach by itself, so a request the browser sends on its own (a
 * page on another port of 127.0.0.1, a cross-site form, a cookie replayed by a non-browser client)
 * carries nothing that opens a session. The token is checked before the handshake, so a refused
 * client never gets an open socket; and it is never in a URL the server sees, so no history, log or
 * Referer holds it. The static files (the built window) are served without it: they hold no secret.
 *
 * Requests naming another Host (DNS rebinding) or another Origin (a web page trying its luck) are
 * refused whatever they carry; a WebSocket upgrade must name the shell's own Origin.
 */
export interface Access {
  token: string;
  /** `http://127.0.0.1:PORT`: the only Origin accepted. */
  origin: string;
  /** `127.0.0.1:PORT`: the only Host accepted. */
  host: string;
}

export type AccessCheck = { ok: true } | { ok: false; reason: string };

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function createAccess(token: string, host: string, port: number): Access {
  return { token, origin: `http://${host}:${port}`, host: `${host}:${port}` };
}

/** A page or asset load: the right Host, and the shell's Origin if any (navigations send none). */
export function checkPageRequest(request: IncomingMessage, access: Access): AccessCheck {
  return checkHostAndOrigin(request, access, false);
}

/** A WebSocket upgrade: the right Host and Origin, and the token offered as a subprotocol. */
export function checkUpgrade(request: IncomingMessage, access: Access): AccessCheck {
  const place = checkHostAndOrigin(request, access, true);
  if (!place.ok) return place;
  const offered = offeredProtocols(request.headers['sec-websocket-protocol']);
  if (!offered.includes(SOCKET_PROTOCOL)) return { ok: false, reason: `no ${SOCKET_PROTOCOL} subprotocol` };
  const tokens = offered.filter((p) => p.startsWith(TOKEN_PROTOCOL_PREFIX));
  if (tokens.length === 0) return { ok: false, reason: 'no token' };
  if (tokens.length > 1 || !sameSecret(tokens[0]!.slice(TOKEN_PROTOCOL_PREFIX.length), access.token))
    return { ok: false, reason: 'wrong token' };
  return { ok: true };
}

function checkHostAndOrigin(request: IncomingMessage, access: Access, requireOrigin: boolean): AccessCheck {
  const host = request.headers.host;
  if (host !== access.host) return { ok: false, reason: `wrong Host ${excerpt(host ?? '')}` };
  const origin = request.headers.origin;
  if (origin !== undefined ? origin !== access.origin : requireOrigin) {
    return { ok: false, reason: origin === undefined ? 'no Origin' : `foreign Origin ${excerpt(origin)}` };
  }
  return { ok: true };
}

/** The WebSocket subprotocols a request offers, in order. */
export function offeredProtocols(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
