/**
 * The service as an OpenID Connect relying party, through openid-client (loaded when first used): the
 * provider's metadata (discovered at the first sign-in and kept; a failed discovery is tried again at the
 * next), the authorization URL (code flow with PKCE S256, state and nonce), and the callback: the code
 * exchanged for tokens, the ID token checked by openid-client (signature, issuer, audience, expiry, nonce),
 * the claims read (from userinfo too when the ID token lacks the groups or the name), and the person's
 * groups mapped to a role: the highest role among their groups wins, over the union of that role's scopes.
 */
import type { Configuration } from 'openid-client';
import { ROLES, type Role, type Scope } from '../../src-preload/model';
import type { ProviderIdentity } from '../core/index';
import { PlugboardError } from '../shared/errors';
import type { OidcConfig } from './oidc-options';

/** A group's role with its scope found among the saved controllers (service.ts resolves them at start). */
export interface ResolvedRole {
  group: string;
  role: Role;
  scope: Scope;
}

/** What the start of a sign-in keeps for its callback. */
export interface ProviderChecks {
  verifier: string;
  state: string;
  nonce: string;
  redirectUri: string;
}

type OpenIdClient = typeof import('openid-client');

export class RelyingParty {
  readonly label: string;
  #configuration: Promise<Configuration> | null = null;
  #library: Promise<OpenIdClient> | null = null;

  constructor(
    readonly config: OidcConfig,
    readonly roles: readonly ResolvedRole[],
  ) {
    this.label = config.label;
  }

  async #client(): Promise<{ lib: OpenIdClient; configuration: Configuration }> {
    const lib = await (this.#library ??= import('openid-client'));
    const { issuer, clientId, clientSecret } = this.config;
    this.#configuration ??= lib.discovery(issuer, clientId, undefined, lib.ClientSecretBasic(clientSecret), {
      // An http:// issuer is accepted only on loopback (oidc-options.ts): a test provider on this machine.
      ...(issuer.protocol === 'http:' ? { execute: [lib.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    try {
      return { lib, configuration: await this.#configuration };
    } catch (error) {
      this.#configuration = null;
      throw providerError(issuer, error);
    }
  }

  /** Fresh checks and the provider's URL to send the browser to. */
  async start(redirectUri: string): Promise<{ url: URL; checks: ProviderChecks }> {
    const { lib, configuration } = await this.#client();
    const checks: ProviderChecks = {
      verifier: lib.randomPKCECodeVerifier(),
      state: lib.randomState(),
      nonce: lib.randomNonce(),
      redirectUri,
    };
    const url = lib.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.scopes.join(' '),
      code_challenge: await lib.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url, checks };
  }

  /** The callback's answer (`search`: its query) made into who signed in, or a sentence why not. */
  async finish(search: string, checks: ProviderChecks): Promise<ProviderIdentity> {
    const { lib, configuration } = await this.#client();
    const current = new URL(checks.redirectUri);
    current.search = search;
    let claims: Record<string, unknown>;
    try {
      const tokens = await lib.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      const sub = claims.sub as string;
      if (
        (claims[this.config.rolesClaim] === undefined || claims.preferred_username === undefined) &&
        tokens.access_token
      ) {
        const info = await lib.fetchUserInfo(configuration, tokens.access_token, sub).catch(() => null);
        if (info)
          claims = {
            ...info,
            ...claims,
            ...pick(info, [this.config.rolesClaim, 'preferred_username', 'email', 'name']),
          };
      }
    } catch (error) {
      throw providerError(this.config.issuer, error);
    }
    const groups = groupsOf(claims[this.config.rolesClaim]);
    return {
      issuer: String(claims.iss),
      subject: String(claims.sub),
      preferredUsername: text(claims.preferred_username),
      email: text(claims.email),
      displayName: text(claims.name),
      groups,
      groupsClaim: this.config.rolesClaim,
      grant: grantOf(groups, this.roles),
    };
  }
}

function pick(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : null;
}

/** A claim's groups: a list of strings, or one string (some providers give a single role so). */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').slice(0, 1000);
  return [];
}

/** The highest role among the groups' mappings, over the union of the scopes mapped to that role. */
export function grantOf(
  groups: readonly string[],
  roles: readonly ResolvedRole[],
): { role: Role; scope: Scope } | null {
  const mine = roles.filter((r) => groups.includes(r.group));
  if (mine.length === 0) return null;
  const role = ROLES[Math.max(...mine.map((r) => ROLES.indexOf(r.role)))]!;
  const scopes = mine.filter((r) => r.role === role).map((r) => r.scope);
  if (scopes.some((s) => s.kind === 'all')) return { role, scope: { kind: 'all' } };
  const union = {
    kind: 'some' as const,
    tags: new Set<string>(),
    controllers: new Set<string>(),
    outlets: new Map<string, { controllerId: string; outlet: number }>(),
  };
  for (const scope of scopes) {
    if (scope.kind !== 'some') continue;
    scope.tags.forEach((t) => union.tags.add(t));
    scope.controllers.forEach((c) => union.controllers.add(c));
    scope.outlets.forEach((o) => union.outlets.set(`${o.controllerId}:${o.outlet}`, o));
  }
  return {
    role,
    scope: {
      kind: 'some',
      tags: [...union.tags],
      controllers: [...union.controllers],
      outlets: [...union.outlets.values()],
    },
  };
}

/** What went wrong with the provider, in a sentence (never its tokens). */
function providerError(issuer: URL, error: unknown): PlugboardError {
  const described = error as {
    error?: unknown;
    error_description?: unknown;
    code?: unknown;
    cause?: unknown;
    message?: unknown;
  };
  if (typeof described.error === 'string') {
    const why =
      typeof described.error_description === 'string' ? `: ${described.error_description.slice(0, 200)}` : '';
    if (described.error === 'access_denied')
      return new PlugboardError(
        'AUTH_FAILED',
        `The identity provider did not sign you in (access denied${why}).`,
        undefined,
        {
          action: 'Sign in again, and allow this service at the provider.',
        },
      );
    return new PlugboardError(
      'AUTH_FAILED',
      `The identity provider refused the sign-in (${described.error.slice(0, 60)}${why}).`,
      undefined,
      {
        action:
          "Sign in again; if it keeps failing, ask the service's administrator to check its registration at the provider.",
      },
    );
  }
  const message =
    typeof described.message === 'string' ? described.message.slice(0, 200) : String(error).slice(0, 200);
  if (
    described.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' ||
    /fetch failed|ECONNREFUSED|ENOTFOUND|timed? ?out|abort/i.test(
      message + String((described.cause as Error | undefined)?.message ?? ''),
    )
  )
    return new PlugboardError(
      'UNREACHABLE',
      `The identity provider at ${issuer.href} could not be reached or answered oddly (${message}).`,
      undefined,
      {
        action:
          "Try again in a moment; if it keeps failing, ask the service's administrator to check --oidc-issuer.",
      },
    );
  return new PlugboardError(
    'AUTH_FAILED',
    `The identity provider's answer was not accepted: ${message}.`,
    undefined,
    {
      action: "Sign in again from the start; if it keeps failing, ask the service's administrator.",
    },
  );
}
