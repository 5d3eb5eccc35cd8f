/**
 * The JSON API's and /metrics' bearer tokens. Each has a name, recorded in the activity log as who
 * acted ("ci-runner switched outlet 3 through the JSON API"). They come from a file the operator keeps
 * (`--token-file`) or, under systemd, the credential `plugboard.tokens`: one `name:secret` a line, `#`
 * comments and blank lines ignored. A name is letters, digits, `.`, `_` or `-`; a secret at least 16
 * characters (`openssl rand -base64 24` makes a good one).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface Token {
  name: string;
  /** SHA-256 of the secret: compared in constant time, never kept in clear. */
  digest: Buffer;
}

export const TOKENS_CREDENTIAL = 'plugboard.tokens';
const NAME = /^[A-Za-z0-9._-]{1,64}$/;
export const MIN_SECRET = 16;

/** Parse a tokens file: the tokens, or a sentence naming the first bad line. */
export function parseTokens(text: string, source: string): Token[] | string {
  const tokens: Token[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const where = `${source} line ${index + 1}`;
    const colon = line.indexOf(':');
    if (colon < 0) return `${where} is not "name:secret".`;
    const name = line.slice(0, colon);
    const secret = line.slice(colon + 1);
    if (!NAME.test(name)) return `${where}: the token name must be 1–64 letters, digits, ".", "_" or "-".`;
    if (secret.length < MIN_SECRET)
      return `${where}: the secret of "${name}" is shorter than ${MIN_SECRET} characters; make one with \`openssl rand -base64 24\`.`;
    if (tokens.some((t) => t.name === name)) return `${where}: the name "${name}" is given twice.`;
    tokens.push({ name, digest: digest(secret) });
  }
  if (tokens.length === 0) return `${source} holds no token: add a line "name:secret".`;
  return tokens;
}

/** The token a request's `Authorization: Bearer …` presents: its name, null when none or unknown. */
export function bearerName(request: IncomingMessage, tokens: readonly Token[]): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return null;
  const given = digest(match[1]!);
  let found: string | null = null;
  // Every token is compared, so the time taken says nothing about which one nearly matched.
  for (const token of tokens) if (timingSafeEqual(given, token.digest)) found ??= token.name;
  return found;
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
