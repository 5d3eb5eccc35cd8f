import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const MAX_PARAMS = 32;
const MAX_VALUE = 4096;

/**
 * Parses `key=value, key="quoted \"value\""` auth parameters (RFC 7235). Returns null for anything
 * malformed: unbalanced quotes, a missing `=`, duplicated or too many parameters.
 */
export function parseAuthParams(text: string): Map<string, string> | null {
  const params = new Map<string, string>();
  let i = 0;
  const skip = (chars: RegExp): void => {
    while (i < text.length && chars.test(text[i] ?? '')) i++;
  };
  for (;;) {
    skip(/[\s,]/);
    if (i >= text.length) return params;
    const keyStart = i;
    while (i < text.length && TOKEN.test(text[i] ?? '')) i++;
    const key = text.slice(keyStart, i).toLowerCase();
    skip(/[ \t]/);
    if (key === '' || text[i] !== '=') return null;
    i++;
    skip(/[ \t]/);
    let value = '';
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const char = text[i++] ?? '';
        if (char === '\\') value += text[i++] ?? '';
        else if (char === '"') {
          closed = true;
          break;
        } else value += char;
      }
      if (!closed) return null;
    } else {
      const start = i;
      while (i < text.length && TOKEN.test(text[i] ?? '')) i++;
      value = text.slice(start, i);
    }
    if (params.has(key) || params.size >= MAX_PARAMS || value.length > MAX_VALUE) return null;
    params.set(key, value);
    skip(/[ \t]/);
    if (i < text.length && text[i] !== ',') return null;
  }
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

export interface DigestFields {
  username: string;
  realm: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  /** With qop=auth (RFC 2617); absent for the RFC 2069 form. */
  qop?: { nc: string; cnonce: string } | undefined;
}

/** The expected `response` for these fields, MD5 only (no `algorithm` is ever offered). */
export function digestResponse(fields: DigestFields): string {
  const ha1 = md5(`${fields.username}:${fields.realm}:${fields.password}`);
  const ha2 = md5(`${fields.method}:${fields.uri}`);
  return fields.qop
    ? md5(`${ha1}:${fields.nonce}:${fields.qop.nc}:${fields.qop.cnonce}:auth:${ha2}`)
    : md5(`${ha1}:${fields.nonce}:${ha2}`);
}

/** Constant-time comparison of two secrets. */
export function sameSecret(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** Hex digests compare case-insensitively. */
export function sameHex(expected: string, given: string): boolean {
  return sameSecret(expected.toLowerCase(), given.toLowerCase());
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 16 random letters and digits, like `NZAeQHhoCNifFjFa` from a real LPC9. */
function newNonce(): string {
  let nonce = '';
  while (nonce.length < 16) {
    for (const byte of randomBytes(24)) {
      // 248 = 4 × 62: reject the rest so every character is equally likely.
      if (byte < 248 && nonce.length < 16) nonce += ALPHABET[byte % 62];
    }
  }
  return nonce;
}

/** Nonces this controller handed out, each valid for `lifetimeMs`; the oldest go first when full. */
export class NonceStore {
  private readonly issued = new Map<string, number>();

  constructor(
    private readonly lifetimeMs: number,
    private readonly capacity = 4096,
  ) {}

  issue(): string {
    const nonce = newNonce();
    this.issued.set(nonce, Date.now());
    if (this.issued.size > this.capacity) {
      const oldest = this.issued.keys().next().value;
      if (oldest !== undefined) this.issued.delete(oldest);
    }
    return nonce;
  }

  /** Fresh: issued here and not expired. Anything else is stale (expired, forgotten, or from before a reboot). */
  isFresh(nonce: string): boolean {
    const issuedAt = this.issued.get(nonce);
    if (issuedAt === undefined) return false;
    if (Date.now() - issuedAt > this.lifetimeMs) {
      this.issued.delete(nonce);
      return false;
    }
    return true;
  }

  clear(): void {
    this.issued.clear();
  }
}
