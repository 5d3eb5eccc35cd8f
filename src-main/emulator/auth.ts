import type { IncomingMessage } from 'node:http';
import type { Controller } from './controller';
import { digestResponse, NonceStore, parseAuthParams, sameHex, sameSecret } from './digest';
import { badRequest, forbidden, HttpError, notFound } from './http-error';
import type { Caller } from './tree';
import type { UserRecord } from './users';

export interface AuthOptions {
  /** Offer qop="auth" in the challenge. */
  qop: boolean;
  nonceLifetimeMs: number;
}

/**
 * Logs a request in the way a unit does: HTTP digest (RFC 2069 responses, and RFC 2617 `qop=auth`
 * ones too), Basic only while plaintext logins are allowed, Bearer tokens on firmware ≥ 1.10.
 * Every refusal is a 401 carrying a fresh upper-case `DIGEST` challenge.
 */
export class Authenticator {
  readonly nonces: NonceStore;

  constructor(
    private readonly controller: Controller,
    private readonly options: AuthOptions,
  ) {
    this.nonces = new NonceStore(options.nonceLifetimeMs);
  }

  /** `DIGEST realm="DLI <serial>", nonce="<16 chars>"` (+ qop, + stale). */
  challenge(stale = false): string {
    const qop = this.options.qop ? ', qop="auth"' : '';
    return `DIGEST realm="${this.controller.realm}", nonce="${this.nonces.issue()}"${qop}${stale ? ', stale=true' : ''}`;
  }

  unauthorized(message: string, stale = false): HttpError {
    return new HttpError(401, 'unauthorized', message, {}, { 'WWW-Authenticate': this.challenge(stale) });
  }

  /** The caller, or throws: 401 (with a challenge), 400 for a malformed header, 403 for a disabled user. */
  authenticate(req: IncomingMessage): Caller {
    const header = req.headers.authorization;
    const ip = req.socket.remoteAddress ?? '';
    if (!header) throw this.unauthorized('Log in with HTTP digest authentication.');
    const space = header.indexOf(' ');
    const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
    const rest = space < 0 ? '' : header.slice(space + 1).trim();
    switch (scheme) {
      case 'digest':
        return this.digest(req, rest, ip);
      case 'basic':
        return this.basic(rest, ip);
      case 'bearer':
        return this.bearer(rest, ip);
      default:
        throw this.unauthorized(`The ${scheme} authentication scheme is not supported; use digest.`);
    }
  }

  private digest(req: IncomingMessage, rest: string, ip: string): Caller {
    const params = parseAuthParams(rest);
    if (!params) throw badRequest('The digest Authorization header is malformed.', 'bad_authorization');
    const field = (name: string): string => {
      const value = params.get(name);
      if (value === undefined)
        throw badRequest(`The digest Authorization header lacks ${name}.`, 'bad_authorization');
      return value;
    };
    const username = field('username');
    const realm = field('realm');
    const nonce = field('nonce');
    const uri = field('uri');
    const response = field('response');
    const qop = params.get('qop');
    if (qop !== undefined && qop.toLowerCase() !== 'auth')
      throw this.unauthorized('Only qop=auth is supported.');
    const algorithm = params.get('algorithm');
    if (algorithm !== undefined && algorithm.toUpperCase() !== 'MD5')
      throw this.unauthorized('Only the MD5 algorithm is supported.');
    if (uri !== req.url)
      throw badRequest('The digest uri does not match the requested URI.', 'bad_authorization');
    if (realm !== this.controller.realm) throw this.unauthorized('Wrong realm: log in again.');
    const user = this.controller.users.find(username);
    const expected = digestResponse({
      username,
      realm,
      password: user?.password ?? '',
      method: req.method ?? '',
      uri,
      nonce,
      qop: qop === undefined ? undefined : { nc: params.get('nc') ?? '', cnonce: params.get('cnonce') ?? '' },
    });
    if (!user || !sameHex(expected, response)) throw this.unauthorized('Wrong user name or password.');
    if (!this.nonces.isFresh(nonce))
      throw this.unauthorized('The nonce has expired; answer the new challenge.', true);
    return this.admit(user, ip);
  }

  /**
   * A logged-in user. With the externalApiGrant option, a non-admin user needs the External APIs
   * grant; what a unit answers without it is unknown (reference §13), so the status is an option.
   */
  private admit(user: UserRecord, ip: string): Caller {
    if (!user.isAllowed) throw forbidden(`The user ${user.name} is not allowed to log in.`, 'not_allowed');
    const { externalApiGrant, ungrantedStatus } = this.controller.behaviours;
    if (externalApiGrant && !user.isAdmin && user.externalApis === false) {
      const message = `The user ${user.name} has not been granted access on the External APIs page.`;
      if (ungrantedStatus === 401) throw this.unauthorized(message);
      if (ungrantedStatus === 404) throw notFound(message);
      throw forbidden(message, 'not_granted');
    }
    return { kind: 'user', user, ip };
  }

  private basic(rest: string, ip: string): Caller {
    if (!this.controller.config.allowPlaintextLogins) {
      throw this.unauthorized('Plaintext (Basic) logins are off on this controller; use digest.');
    }
    const decoded = Buffer.from(rest, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon > 0 ? this.controller.users.find(decoded.slice(0, colon)) : undefined;
    const password = colon > 0 ? decoded.slice(colon + 1) : '';
    if (!user || !sameSecret(user.password, password))
      throw this.unauthorized('Wrong user name or password.');
    return this.admit(user, ip);
  }

  private bearer(rest: string, ip: string): Caller {
    if (!this.controller.features.tokens)
      throw this.unauthorized('Access tokens need firmware 1.10 or newer.');
    const clientId = this.controller.clients.verify(rest);
    if (!clientId) throw this.unauthorized('The access token is not valid.');
    return { kind: 'token', clientId, ip };
  }
}
