/**
 * Accounts of people an identity provider (OpenID Connect) vouches for. Such an account is found by the
 * provider's issuer and the subject it gives the person (account_identity), never by name: a person
 * renamed at the provider keeps their account, and a name at the provider can never take over an account
 * of the lab that someone else made (a local "admin", say). Its name is chosen once, at the first
 * sign-in, from `preferred_username` (else the local part of `email`), folded to an account name; when
 * that name is taken, `-2`, `-3`… is added. Its display name, role and scope are refreshed from the
 * claims at every sign-in; it has no password (an administrator may still give it one).
 *
 * A person whose claims map to no role is refused with a sentence naming what the provider said, and the
 * sessions of their account (if they had one) end: the provider no longer gives them a place in the lab.
 */
import type { Kysely } from 'kysely';
import type { Role, Scope } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import type { AccountTable, LabSchema } from '../database/schema';
import { ACCOUNT_NAME } from './account-rules';

/** Who the provider says signed in, and the role its claims map to (the service's mapping decides). */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  preferredUsername: string | null;
  email: string | null;
  /** The `name` claim, for the display name. */
  displayName: string | null;
  /** The values of the claim that maps to roles, as the provider gave them (for the refusal's sentence). */
  groups: string[];
  /** The claim's name (`groups`), for the refusal's sentence. */
  groupsClaim: string;
  /** The highest role the groups map to and where it applies; null: none of them maps to a role. */
  grant: { role: Role; scope: Scope } | null;
}

/** The account name the claims suggest (before a taken name is numbered), or '' when they suggest none. */
export function identityName(identity: ProviderIdentity): string {
  const given = identity.preferredUsername ?? identity.email?.split('@')[0] ?? '';
  return given
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 60);
}

/**
 * The account of `identity`, made at its first sign-in and refreshed from its claims; AUTH_FAILED with
 * a sentence when the claims map to no role or the account is disabled. `revoke` ends an account's sessions.
 */
export async function providerAccount(
  db: Kysely<LabSchema>,
  identity: ProviderIdentity,
  now: number,
  revoke: (name: string) => Promise<unknown>,
): Promise<AccountTable> {
  const known = await db
    .selectFrom('account_identity')
    .innerJoin('account', 'account.name', 'account_identity.account')
    .selectAll('account')
    .where('account_identity.issuer', '=', identity.issuer)
    .where('account_identity.subject', '=', identity.subject)
    .executeTakeFirst();
  if (!identity.grant) {
    if (known) await revoke(known.name);
    throw noRole(identity, known?.name ?? identityName(identity));
  }
  const displayName = (identity.displayName?.trim() || '').slice(0, 100);
  const { role, scope } = identity.grant;
  if (known) {
    if (known.disabled_at !== null)
      throw new PlugboardError(
        'AUTH_FAILED',
        `The account "${known.name}" is disabled.`,
        { disabled: true },
        { action: "Ask the lab service's administrator to enable it (plugboard accounts enable)." },
      );
    const changes = { display_name: displayName || known.display_name, role, scope: JSON.stringify(scope) };
    await db.updateTable('account').set(changes).where('name', '=', known.name).execute();
    return { ...known, ...changes };
  }
  const base = identityName(identity);
  if (!ACCOUNT_NAME.test(base))
    throw new PlugboardError(
      'AUTH_FAILED',
      'The identity provider gave no name to make an account of: neither preferred_username nor email.',
      undefined,
      { action: "Ask the provider's administrator to release the profile or email claim to this service." },
    );
  return db.transaction().execute(async (tx) => {
    const taken = new Set(
      (await tx.selectFrom('account').select('name').where('name', 'like', `${base}%`).execute()).map(
        (r) => r.name,
      ),
    );
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    const row: AccountTable = {
      name,
      display_name: displayName || name,
      role,
      scope: JSON.stringify(scope),
      password_hash: null,
      created_at: now,
      disabled_at: null,
    };
    await tx.insertInto('account').values(row).execute();
    await tx
      .insertInto('account_identity')
      .values({ issuer: identity.issuer, subject: identity.subject, account: name })
      .execute();
    return row;
  });
}

function noRole(identity: ProviderIdentity, name: string): PlugboardError {
  const groups = identity.groups.slice(0, 10).map((g) => `"${g.slice(0, 60)}"`);
  const said =
    groups.length === 0
      ? `the identity provider gave no "${identity.groupsClaim}" claim`
      : `none of ${name ? 'their' : 'the'} ${identity.groupsClaim} (${groups.join(', ')}${identity.groups.length > 10 ? ', …' : ''}) is given a role here`;
  return new PlugboardError(
    'AUTH_FAILED',
    `${name || 'This person'} may not sign in to this lab: ${said}.`,
    { noRole: true },
    {
      action: `Ask the lab service's administrator to map one of these ${identity.groupsClaim} to a role (plugboard serve --oidc-role 'GROUP=operator').`,
    },
  );
}
