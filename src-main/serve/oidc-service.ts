/**
 * The identity provider's sign-in assembled at the service's start: each group's scope found among the
 * saved controllers (by id from then on, as a token's: grants.ts), a scope naming no saved controller
 * stopping the start with a sentence; and what the start-up says about it.
 */
import type { ControllerSummary } from '../../src-preload/model';
import { grantWords, resolveScope } from './grants';
import { OidcLogins } from './oidc-logins';
import type { OidcConfig } from './oidc-options';
import { RelyingParty, type ResolvedRole } from './oidc-relying-party';

/** The service's side of signing in through a provider, when it has one (api-oidc.ts answers with it). */
export interface OidcSignIn {
  party: RelyingParty;
  logins: OidcLogins;
  /** The service's address for the provider's callback (--advertise), else the request's own. */
  advertise: string | null;
}

export function startOidc(
  config: OidcConfig,
  controllers: readonly ControllerSummary[],
  advertise: string | null,
): OidcSignIn {
  const roles: ResolvedRole[] = config.roles.map((mapping) => {
    const scope = resolveScope(mapping.grant.written, controllers, `--oidc-role ${mapping.written}`);
    if (typeof scope === 'string') throw new Error(scope);
    return { group: mapping.group, role: mapping.grant.role, scope };
  });
  return { party: new RelyingParty(config, roles), logins: new OidcLogins(), advertise };
}

/** "oidc: sign-in through https://sso… ("Lab SSO") as client plugboard; lab-admins: admin everywhere, …". */
export function oidcLines(
  config: OidcConfig,
  oidc: OidcSignIn,
  controllers: readonly ControllerSummary[],
): string[] {
  const groups = oidc.party.roles.map((r) => `${r.group}: ${grantWords(r.role, r.scope, controllers)}`);
  const callback = oidc.advertise
    ? `${oidc.advertise}/api/v1/oidc/callback`
    : 'https://<this service>/api/v1/oidc/callback';
  return [
    `oidc: sign-in through ${config.issuer.href} ("${config.label}") as client ${config.clientId} (secret from ${config.secretSource}); ${config.rolesClaim} ${groups.join(', ')}; the provider's redirect URI for this service: ${callback}`,
  ];
}
