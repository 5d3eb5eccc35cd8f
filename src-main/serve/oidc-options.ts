/**
 * `plugboard serve`'s flags for signing in through the lab's identity provider (OpenID Connect), checked
 * before anything starts, each mistake a sentence naming the flag:
 *
 *   --oidc-issuer URL           the provider (https://; http:// only on this machine's loopback)
 *   --oidc-client-id ID         this service as a client registered there
 *   --oidc-client-secret-file PATH   its secret (chmod 600); under systemd the credential plugboard.oidc
 *   --oidc-label TEXT           what the sign-in button says (default: the issuer's host)
 *   --oidc-roles-claim NAME     the claim listing the person's groups (default groups)
 *   --oidc-role 'GROUP=ROLE [SCOPE]'   a group's role and scope, as a token's (grants.ts); repeatable
 *   --oidc-scope SCOPE          a scope to ask for besides openid profile email; repeatable
 *
 * The secret is never an argument (a command line is readable by every user of the machine).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseGrant, type Grant } from './grants';
import { isLoopback } from './network';

export const OIDC_CREDENTIAL = 'plugboard.oidc';
export const DEFAULT_ROLES_CLAIM = 'groups';

/** One group's role: `lab-admins=admin`, `rack7-ops=operator tags=rack-7`. */
export interface OidcRoleMapping {
  group: string;
  grant: Grant;
  /** As written, for sentences and start-up lines. */
  written: string;
}

export interface OidcConfig {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** Where the secret came from, for the start-up line. */
  secretSource: string;
  label: string;
  rolesClaim: string;
  roles: OidcRoleMapping[];
  /** Scopes asked for: openid profile email and each --oidc-scope. */
  scopes: string[];
}

export interface OidcFlags {
  'oidc-issuer'?: string | undefined;
  'oidc-client-id'?: string | undefined;
  'oidc-client-secret-file'?: string | undefined;
  'oidc-label'?: string | undefined;
  'oidc-roles-claim'?: string | undefined;
  'oidc-role'?: string[] | undefined;
  'oidc-scope'?: string[] | undefined;
}

/** The flags for parseArgs. */
export const OIDC_OPTIONS = {
  'oidc-issuer': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-client-secret-file': { type: 'string' },
  'oidc-label': { type: 'string' },
  'oidc-roles-claim': { type: 'string' },
  'oidc-role': { type: 'string', multiple: true },
  'oidc-scope': { type: 'string', multiple: true },
} as const;

export const OIDC_USAGE = `  --oidc-issuer URL          sign in through the lab's OpenID Connect provider (https://)
  --oidc-client-id ID        this service's client id there; its secret from
  --oidc-client-secret-file PATH  (chmod 600), or the systemd credential ${OIDC_CREDENTIAL}
  --oidc-role 'GROUP=ROLE [SCOPE]'  the role (and scope, as in --token-file) of a group;
                             repeatable; the highest role wins, a person in no group is refused
  --oidc-roles-claim NAME    the claim that lists the person's groups (default ${DEFAULT_ROLES_CLAIM})
  --oidc-label TEXT          the sign-in button's words (default: the issuer's host name)
  --oidc-scope SCOPE         a scope to ask for besides openid profile email; repeatable`;

/** A sentence about the flags, for UsageError. */
export type OidcProblem = string;

export async function parseOidc(
  flags: OidcFlags,
  env: NodeJS.ProcessEnv,
): Promise<OidcConfig | null | OidcProblem> {
  const given = (Object.keys(OIDC_OPTIONS) as (keyof OidcFlags)[]).filter((k) => flags[k] !== undefined);
  if (flags['oidc-issuer'] === undefined) {
    if (given.length > 0)
      return `--${given[0]} needs --oidc-issuer: give the identity provider's address, like --oidc-issuer https://sso.example.org/realms/lab.`;
    return null;
  }
  const issuer = parseIssuer(flags['oidc-issuer']);
  if (typeof issuer === 'string') return issuer;
  const clientId = flags['oidc-client-id']?.trim();
  if (!clientId || clientId.length > 200)
    return '--oidc-issuer needs --oidc-client-id: the id this service is registered with at the provider.';
  const rolesClaim = (flags['oidc-roles-claim'] ?? DEFAULT_ROLES_CLAIM).trim();
  if (!/^[A-Za-z0-9_.:/-]{1,100}$/.test(rolesClaim))
    return `--oidc-roles-claim ${JSON.stringify(flags['oidc-roles-claim'])}: give a claim's name, like groups or roles.`;
  const roles: OidcRoleMapping[] = [];
  for (const text of flags['oidc-role'] ?? []) {
    const mapping = parseRole(text);
    if (typeof mapping === 'string') return mapping;
    if (roles.some((r) => r.group === mapping.group))
      return `--oidc-role: the group "${mapping.group}" is given twice; give it once, with one role.`;
    roles.push(mapping);
  }
  if (roles.length === 0)
    return "--oidc-issuer needs at least one --oidc-role 'GROUP=ROLE': without one, nobody could sign in through the provider.";
  const scopes = ['openid', 'profile', 'email'];
  for (const scope of flags['oidc-scope'] ?? []) {
    if (!/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(scope))
      return `--oidc-scope ${JSON.stringify(scope)}: give one scope's name, like groups.`;
    if (!scopes.includes(scope)) scopes.push(scope);
  }
  const label = (flags['oidc-label'] ?? issuer.hostname).trim();
  if (!label || label.length > 60 || [...label].some((c) => c.charCodeAt(0) < 0x20))
    return `--oidc-label ${JSON.stringify(flags['oidc-label'])}: give the button's words, up to 60 characters, like "Lab SSO".`;
  const secret = await readSecret(flags['oidc-client-secret-file'], env);
  if (typeof secret === 'string') return secret;
  return { issuer, clientId, ...secret, label, rolesClaim, roles, scopes };
}

function parseIssuer(text: string): URL | OidcProblem {
  const url = URL.canParse(text) ? new URL(text) : null;
  const example = 'like --oidc-issuer https://sso.example.org/realms/lab';
  if (!url || url.username || url.password || url.search || url.hash)
    return `--oidc-issuer ${JSON.stringify(text)}: give the provider's issuer URL, ${example}.`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:' && !(isLoopback(host) || host === 'localhost'))
    return `--oidc-issuer ${text}: the provider must be reached over HTTPS (http:// only on this machine's loopback, for a test provider); ${example}.`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `--oidc-issuer ${JSON.stringify(text)}: give an https:// address, ${example}.`;
  return url;
}

function parseRole(text: string): OidcRoleMapping | OidcProblem {
  const equals = text.indexOf('=');
  const group = equals > 0 ? text.slice(0, equals).trim() : '';
  const example = "--oidc-role 'rack7-ops=operator tags=rack-7'";
  if (!group || group.length > 200)
    return `--oidc-role ${JSON.stringify(text.slice(0, 80))}: give a group, "=", then its role (and scope), like ${example}.`;
  const grant = parseGrant(text.slice(equals + 1), `--oidc-role ${text.slice(0, 80)}`, group, example);
  if (typeof grant === 'string') return grant;
  return { group, grant, written: text };
}

async function readSecret(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ clientSecret: string; secretSource: string } | OidcProblem> {
  const credentials = env.CREDENTIALS_DIRECTORY;
  const credential = credentials ? path.join(credentials, OIDC_CREDENTIAL) : null;
  let source = file ? path.resolve(file) : null;
  if (!source && credential && (await stat(credential).catch(() => null))) source = credential;
  if (!source)
    return `--oidc-issuer needs the client secret: give --oidc-client-secret-file PATH (chmod 600), or the systemd credential ${OIDC_CREDENTIAL}.`;
  try {
    if (file && process.platform !== 'win32' && ((await stat(source)).mode & 0o077) !== 0)
      return `--oidc-client-secret-file ${source} can be read by other users: make it private with \`chmod 600 ${source}\`.`;
    const clientSecret = (await readFile(source, 'utf8')).trim();
    if (!clientSecret) return `${source} is empty: it should hold the client secret the provider gave.`;
    return { clientSecret, secretSource: source };
  } catch (error) {
    return `${source} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`;
  }
}
