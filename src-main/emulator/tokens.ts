import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, HttpError, type Json } from './http-error';
import type { TokenScopes } from './options';
import { parseApiPath, type Step } from './uri';

/**
 * An OAuth-style API client (`auth/clients/<id>/`, firmware ≥ 1.10), as a public DLI token script
 * writes it: scopes are URI patterns with an `?access=` suffix, access tokens are stored as the
 * SHA-256 hex of the raw secret, and a caller presents `Bearer <client id>.<base64url(secret)>`.
 */
export interface ClientRecord {
  name: string;
  redirect_urls: { [key: string]: Json };
  scopes: Record<string, boolean>;
  refresh_tokens: { [key: string]: Json };
  access_tokens: { [key: string]: Json };
}

/** What a request needs: reading (GET/HEAD), changing (PUT/PATCH/POST to a collection/DELETE), calling. */
export type Access = 'get' | 'modify' | 'invoke';
interface Scope {
  steps: Step[];
  access: ReadonlySet<Access>;
}
interface Client {
  record: ClientRecord;
  scopes: Scope[];
}

export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const CLIENT_FIELDS = ['name', 'redirect_urls', 'scopes', 'refresh_tokens', 'access_tokens'];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SIMPLE_ACCESS: Record<string, Access[]> = {
  read: ['get'],
  modify: ['get', 'modify', 'invoke'],
};
const DLI_ACCESS: readonly string[] = ['get', 'modify', 'invoke'];

/**
 * 'simple': `?access=read|modify`, modify implies reading and calls. 'dli' (DLI's access_tokens page):
 * `?access=` is a comma list of get, modify and invoke, each granting only itself.
 */
function parseAccess(query: string | undefined, mode: TokenScopes): Set<Access> | null {
  const value =
    query === undefined ? (mode === 'simple' ? 'read' : null) : new URLSearchParams(query).get('access');
  if (value === null) return null;
  if (mode === 'simple') {
    const granted = SIMPLE_ACCESS[value];
    return granted ? new Set(granted) : null;
  }
  const parts = value.split(',').map((part) => part.trim());
  if (parts.some((part) => !DLI_ACCESS.includes(part))) return null;
  return new Set(parts as Access[]);
}

function parseScope(pattern: string, mode: TokenScopes): Scope {
  const problem = (): HttpError =>
    badRequest(
      mode === 'simple'
        ? `The scope "${pattern}" is not of the form /path/?access=read or /path/?access=modify.`
        : `The scope "${pattern}" is not of the form /path/?access=get, modify, invoke or a comma list of them.`,
      'bad_value',
    );
  const [path = '', query, ...rest] = pattern.split('?');
  if (!path.startsWith('/') || rest.length > 0) throw problem();
  const access = parseAccess(query, mode);
  if (!access) throw problem();
  const relative = path.slice(1);
  const steps = parseApiPath(relative === '' || relative.endsWith('/') ? relative : `${relative}/`);
  return { steps, access };
}

/** Does the scope cover this concrete resource path (the scope's path is a prefix of it)? */
function covers(steps: Step[], path: readonly string[]): boolean {
  if (steps.length > path.length) return false;
  return steps.every((step, i) => {
    const key = path[i] ?? '';
    switch (step.kind) {
      case 'key':
        return step.key === key;
      case 'all':
        return true;
      case 'keys':
        return step.keys.includes(key);
      case 'filter':
        // Filters depend on live data; a scope that uses one grants nothing.
        return false;
    }
  });
}

export class Clients {
  private readonly clients = new Map<string, Client>();

  constructor(private readonly mode: TokenScopes = 'simple') {}

  ids(): string[] {
    return [...this.clients.keys()];
  }

  record(id: string): ClientRecord | undefined {
    return this.clients.get(id)?.record;
  }

  /** Validates a client body completely (400 on the first problem). */
  parse(body: unknown): Client {
    if (!isPlainObject(body))
      throw badRequest('A client is a JSON object with name, scopes and access_tokens.', 'bad_body');
    const unknown = Object.keys(body).filter((key) => !CLIENT_FIELDS.includes(key));
    if (unknown.length > 0) throw badRequest(`Unknown client field: ${unknown.join(', ')}.`, 'bad_body');
    const { name = '', redirect_urls = {}, scopes = {}, refresh_tokens = {}, access_tokens = {} } = body;
    if (typeof name !== 'string' || name.length > 64)
      throw badRequest('name must be a string of at most 64 characters.', 'bad_value');
    for (const [field, value] of Object.entries({ redirect_urls, scopes, refresh_tokens, access_tokens })) {
      if (!isPlainObject(value)) throw badRequest(`${field} must be a JSON object.`, 'bad_value');
    }
    const scopeMap = scopes as Record<string, unknown>;
    if (Object.values(scopeMap).some((flag) => typeof flag !== 'boolean')) {
      throw badRequest('Each scope maps to true or false.', 'bad_value');
    }
    const tokens = access_tokens as Record<string, unknown>;
    if (Object.keys(tokens).some((hash) => !/^[0-9a-fA-F]{64}$/.test(hash))) {
      throw badRequest('access_tokens are keyed by the SHA-256 hex digest of each raw secret.', 'bad_value');
    }
    const parsed = Object.entries(scopeMap)
      .filter(([, enabled]) => enabled === true)
      .map(([pattern]) => parseScope(pattern, this.mode));
    // Parse disabled scopes too, so a typo is reported rather than silently kept.
    Object.keys(scopeMap).forEach((pattern) => parseScope(pattern, this.mode));
    const lowerTokens = Object.fromEntries(Object.keys(tokens).map((hash) => [hash.toLowerCase(), {}]));
    return {
      record: {
        name,
        redirect_urls: redirect_urls as ClientRecord['redirect_urls'],
        scopes: scopeMap as Record<string, boolean>,
        refresh_tokens: refresh_tokens as ClientRecord['refresh_tokens'],
        access_tokens: lowerTokens,
      },
      scopes: parsed,
    };
  }

  put(id: string, client: Client): void {
    this.clients.set(id, client);
  }

  remove(id: string): boolean {
    return this.clients.delete(id);
  }

  /** Creates (or replaces) a client with one fresh access token; returns the Bearer token to present. */
  issue(id: string, name: string, scopes: string[]): string {
    if (!CLIENT_ID_PATTERN.test(id)) throw new RangeError('A client id is 1–64 letters, digits, _ or -');
    const secret = randomBytes(32);
    const hash = createHash('sha256').update(secret).digest('hex');
    const client = this.parse({
      name,
      scopes: Object.fromEntries(scopes.map((scope) => [scope, true])),
      access_tokens: { [hash]: {} },
    });
    this.put(id, client);
    return `${id}.${secret.toString('base64url')}`;
  }

  /** The client id a Bearer token belongs to, or null when it is not valid. */
  verify(token: string): string | null {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return null;
    const id = token.slice(0, dot);
    const encoded = token.slice(dot + 1);
    if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
    const client = this.clients.get(id);
    if (!client) return null;
    const hash = createHash('sha256').update(Buffer.from(encoded, 'base64url')).digest();
    const known = Object.keys(client.record.access_tokens).some((candidate) =>
      timingSafeEqual(Buffer.from(candidate, 'hex'), hash),
    );
    return known ? id : null;
  }

  /** Does some scope of the client grant this access below its path? */
  allows(id: string, access: Access, path: readonly string[]): boolean {
    const client = this.clients.get(id);
    if (!client) return false;
    return client.scopes.some((scope) => scope.access.has(access) && covers(scope.steps, path));
  }
}
