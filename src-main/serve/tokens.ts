/**
 * The JSON API's, the remote link's and /metrics' bearer tokens. Each has a name, recorded in the
 * activity log as who acted ("ci-runner switched outlet 3 through the JSON API"), and a role the Core
 * checks every call against (core/handlers/permissions.ts). They come from a file the operator keeps
 * (`--token-file`) or, under systemd, the credential `plugboard.tokens`: one token a line, `#` comments
 * and blank lines ignored:
 *
 *   name[role]:secret            ci-runner[operator]:Zq3…   (role: observer, operator or admin)
 *   name[role scope…]:secret     ci[operator tags=farm outlets=bench-a:3]:Zq3…   (grants.ts)
 *   name:secret                  an older line without a role: it may only read (observer)
 *
 * The line is split at its first colon, so a secret may hold colons and the head may not (an outlet in
 * a scope is `<controller>:<n>`, so the head ends at the closing bracket's colon). The brackets hold
 * words: the role first, then where it applies (grants.ts; without one, everywhere). A name is letters,
 * digits, `.`, `_` or `-`; a secret at least 16 characters (`openssl rand -base64 24` makes a good one).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Caller, ActivityDoor, ControllerSummary, Role, Scope } from '../../src-preload/model';
import { grantWords, parseGrant, resolveScope, unresolvedScope, type WrittenScope } from './grants';

export interface Token {
  name: string;
  /** SHA-256 of the secret: compared in constant time, never kept in clear. */
  digest: Buffer;
  role: Role;
  /** Written without a role (`name:secret`, before roles): it reads only, and start-up says so. */
  legacy: boolean;
  /** Where its role applies as written (null: everywhere). */
  written: WrittenScope | null;
  /** The same with its controllers found (resolveTokenScopes), once the saved controllers are known. */
  scope?: Scope;
}

export const TOKENS_CREDENTIAL = 'plugboard.tokens';
const HEAD = /^([A-Za-z0-9._-]{1,64})(?:\[([^\]]*)\])?$/;
/** A head with a scope ends at its closing bracket, followed by the colon before the secret. */
const BRACKETED = /^[A-Za-z0-9._-]{1,64}\[[^\]]*\](?=:)/;
export const MIN_SECRET = 16;

/** Parse a tokens file: the tokens, or a sentence naming the first bad line. */
export function parseTokens(text: string, source: string): Token[] | string {
  const tokens: Token[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const where = `${source} line ${index + 1}`;
    const bracketed = BRACKETED.exec(line);
    const colon = bracketed ? bracketed[0].length : line.indexOf(':');
    if (colon < 0) return `${where} is not "name[role]:secret".`;
    const head = HEAD.exec(line.slice(0, colon));
    const secret = line.slice(colon + 1);
    if (!head)
      return `${where}: before the first colon give the token's name (1–64 letters, digits, ".", "_" or "-") and its role in brackets, like ci-runner[operator]:<secret>.`;
    const name = head[1]!;
    const grant =
      head[2] === undefined
        ? { role: 'observer' as const, written: null }
        : parseGrant(head[2], where, name, `${name}[operator tags=rack-7]:<secret>`);
    if (typeof grant === 'string') return grant;
    if (secret.length < MIN_SECRET)
      return `${where}: the secret of "${name}" is shorter than ${MIN_SECRET} characters; make one with \`openssl rand -base64 24\`.`;
    if (tokens.some((t) => t.name === name)) return `${where}: the name "${name}" is given twice.`;
    tokens.push({
      name,
      digest: digest(secret),
      role: grant.role,
      legacy: head[2] === undefined,
      written: grant.written,
    });
  }
  if (tokens.length === 0) return `${source} holds no token: add a line "name[role]:secret".`;
  return tokens;
}

/**
 * The tokens with their scopes' controllers found among the saved ones, by id from now on; or a
 * sentence naming the first one that names no saved controller.
 */
export function resolveTokenScopes(
  tokens: readonly Token[],
  controllers: readonly ControllerSummary[],
  source: string,
): Token[] | string {
  const resolved: Token[] = [];
  for (const token of tokens) {
    const scope = resolveScope(token.written, controllers, `${source}: the token "${token.name}"`);
    if (typeof scope === 'string') return scope;
    resolved.push({ ...token, scope });
  }
  return resolved;
}

/** The token a request's `Authorization: Bearer …` presents, null when none or unknown. */
export function bearerToken(request: IncomingMessage, tokens: readonly Token[]): Token | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return null;
  const given = digest(match[1]!);
  let found: Token | null = null;
  // Every token is compared, so the time taken says nothing about which one nearly matched.
  for (const token of tokens) if (timingSafeEqual(given, token.digest)) found ??= token;
  return found;
}

/** Whom a token's calls act as, through `door`, with its role. */
export function tokenCaller(token: Token, door: ActivityDoor): Caller {
  return {
    door,
    who: token.name,
    role: token.role,
    credential: token.legacy ? 'legacy-token' : 'token',
    scope: scopeOf(token),
  };
}

function scopeOf(token: Token): Scope {
  return token.scope ?? unresolvedScope(token.written);
}

/** What `plugboard serve` prints at start about its tokens: each with its role and scope, and each older line. */
export function tokenLines(
  tokens: readonly Token[],
  source: string,
  controllers: readonly ControllerSummary[] = [],
): string[] {
  const named = tokens.map(
    (t) => `${t.name} (${grantWords(t.role, scopeOf(t), controllers)}${t.legacy ? ', no role written' : ''})`,
  );
  return [
    `tokens: ${named.join(', ')} (from ${source})`,
    ...tokens
      .filter((t) => t.legacy)
      .map(
        (t) =>
          `token "${t.name}": its line names no role, so it may only read now; to let it switch, write it as ${t.name}[operator]:<secret> (or [observer] to keep it reading, [admin] for everything) in ${source}.`,
      ),
  ];
}

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
