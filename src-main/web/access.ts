import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Who may use the web shell: whoever holds this run's token. The token comes once in the printed URL;
 * the first tokened request sets a cookie derived from it (HttpOnly, SameSite=Strict), which the
 * browser then sends with the page's assets and its WebSocket. Requests naming another Host (DNS
 * rebinding) or another Origin (a web page trying its luck) are refused whatever they carry.
 */
export interface Access {
  token: string;
  /** `http://127.0.0.1:PORT`: the only Origin and Host accepted. */
  origin: string;
  /** Cookie names are per host, not per port: the port keeps two shells from overwriting each other. */
  cookieName: string;
  /** The Set-Cookie header value for a request that proved the token. */
  setCookie: string;
}

export type AccessCheck = { ok: true; byToken: boolean } | { ok: false; reason: string };

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function createAccess(token: string, host: string, port: number): Access {
  const origin = `http://${host}:${port}`;
  const cookieName = `plugboard_${port}`;
  const cookieValue = sessionValue(token);
  return {
    token,
    origin,
    cookieName,
    setCookie: `${cookieName}=${cookieValue}; Path=/; HttpOnly; SameSite=Strict`,
  };
}

function sessionValue(token: string): string {
  return createHmac('sha256', token).update('plugboard web session').digest('base64url');
}

/** `requireOrigin`: WebSocket upgrades must name the shell's origin; page loads may omit it (navigations do). */
export function checkAccess(request: IncomingMessage, access: Access, requireOrigin: boolean): AccessCheck {
  const host = request.headers.host;
  if (host !== new URL(access.origin).host)
    return { ok: false, reason: `wrong Host ${JSON.stringify(host ?? '')}` };
  const origin = request.headers.origin;
  if (origin !== undefined ? origin !== access.origin : requireOrigin) {
    return {
      ok: false,
      reason: origin === undefined ? 'no Origin' : `foreign Origin ${JSON.stringify(origin.slice(0, 100))}`,
    };
  }
  const url = new URL(request.url ?? '/', access.origin);
  const queryToken = url.searchParams.get('token');
  if (queryToken !== null && sameSecret(queryToken, access.token)) return { ok: true, byToken: true };
  const cookie = cookieValue(request.headers.cookie, access.cookieName);
  if (cookie !== null && sameSecret(cookie, sessionValue(access.token))) return { ok: true, byToken: false };
  return { ok: false, reason: queryToken === null && cookie === null ? 'no token' : 'wrong token' };
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
