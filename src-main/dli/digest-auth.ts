/**
 * HTTP Digest on top of digest-fetch's challenge parser and hashing (MD5, SHA-256, SHA-512-256, -sess).
 *
 * digest-fetch's own request path has flaws that matter for real controllers, so this class builds the
 * Authorization header itself:
 * - the nonce count is written in hex (RFC 2617) and restarts with each new nonce;
 * - without `qop` (the RFC 2069 form real DLI units use) no `nc`, `cnonce` or `qop` is sent, exactly as
 *   curl and Python requests do against these units;
 * - the scheme is sent as `Digest` whatever case the challenge used (`DIGEST realm="DLI <serial>"`).
 * Requests are sent by the transport, one at a time per controller, with buffered bodies.
 */
import { DigestClient } from 'digest-fetch';

const SUPPORTED = ['MD5', 'MD5-sess', 'SHA-256', 'SHA-256-sess', 'SHA-512-256', 'SHA-512-256-sess'];

interface ParsedChallenge {
  realm: string;
  nonce: string;
  qop: 'auth' | 'auth-int' | null;
  opaque: string | null;
  cnonce: string;
}

/** The part of digest-fetch's client state its type declarations leave out. */
type DigestState = ParsedChallenge & { nc: number; algorithm: string };

function quoted(value: string): string {
  return `"${value.replace(/(["\\])/g, '\\$1')}"`;
}

export class DigestAuth {
  readonly #user: string;
  readonly #password: string;
  #hasher: DigestClient | null = null;
  #challenge: ParsedChallenge | null = null;
  /** The algorithm named by the challenge; null when it named none (then MD5, and none is echoed). */
  #algorithm: string | null = null;
  #nonceCount = 0;

  constructor(user: string, password: string) {
    this.#user = user;
    this.#password = password;
  }

  /** Whether a challenge is cached, so the next request can carry credentials without a round trip. */
  get ready(): boolean {
    return this.#challenge !== null;
  }

  /** Forget the cached nonce (after a failed login). */
  reset(): void {
    this.#challenge = null;
    this.#nonceCount = 0;
  }

  /**
   * Take a `WWW-Authenticate` header. Returns false when it holds no Digest challenge (or one with an
   * algorithm or qop we cannot answer), in which case logging in with digest is impossible.
   */
  accept(header: string | null): boolean {
    const start = header ? header.search(/(?:^|[\s,])digest\s/i) : -1;
    if (!header || start < 0) return false;
    const challenge = header.slice(start).trim();
    const algorithm = DigestClient.parse(challenge, 'algorithm');
    if (algorithm && !SUPPORTED.some((a) => a.toLowerCase() === algorithm.toLowerCase())) return false;
    const canonical = algorithm ? SUPPORTED.find((a) => a.toLowerCase() === algorithm.toLowerCase())! : null;
    const hasher = new DigestClient(this.#user, this.#password, { algorithm: canonical ?? 'MD5' });
    hasher.parseAuth(challenge);
    const state = hasher.digest as unknown as DigestState;
    if (!state.nonce || state.qop === 'auth-int') return false;
    this.#hasher = hasher;
    this.#algorithm = canonical;
    this.#challenge = {
      realm: state.realm,
      nonce: state.nonce,
      qop: state.qop,
      opaque: state.opaque,
      cnonce: state.cnonce,
    };
    this.#nonceCount = 0;
    return true;
  }

  /** The Authorization header for one request, or null before the first challenge. */
  header(method: string, uri: string): string | null {
    const challenge = this.#challenge;
    const hasher = this.#hasher;
    if (!challenge || !hasher) return null;
    const hash = (text: string): string => String(hasher.hashWithAlgorithm(text));
    let ha1 = String(hasher.computeHash(this.#user, challenge.realm, this.#password));
    if (this.#algorithm?.endsWith('-sess')) ha1 = hash(`${ha1}:${challenge.nonce}:${challenge.cnonce}`);
    const ha2 = hash(`${method}:${uri}`);
    const parts = [
      `username=${quoted(this.#user)}`,
      `realm=${quoted(challenge.realm)}`,
      `nonce=${quoted(challenge.nonce)}`,
      `uri=${quoted(uri)}`,
    ];
    if (challenge.qop) {
      this.#nonceCount += 1;
      const nc = this.#nonceCount.toString(16).padStart(8, '0');
      const response = hash(`${ha1}:${challenge.nonce}:${nc}:${challenge.cnonce}:${challenge.qop}:${ha2}`);
      parts.push(
        `response="${response}"`,
        `qop=${challenge.qop}`,
        `nc=${nc}`,
        `cnonce=${quoted(challenge.cnonce)}`,
      );
    } else {
      parts.push(`response="${hash(`${ha1}:${challenge.nonce}:${ha2}`)}"`);
    }
    if (this.#algorithm) parts.push(`algorithm=${this.#algorithm}`);
    if (challenge.opaque !== null) parts.push(`opaque=${quoted(challenge.opaque)}`);
    return `Digest ${parts.join(', ')}`;
  }
}
