/**
 * Accounts: the people (and machine clients) who sign in to a lab service, each with a role and the scope
 * it applies in. Managed by administrators; a password travels only towards the Core, which keeps its
 * scrypt hash, never the password, and never gives either back.
 */
import * as v from 'valibot';
import type { AccountSummary } from '../model';
import { ROLES } from '../model';
import { call, controllerTag, empty, id, outletRef } from './blocks';

const accountName = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_" or "-"'),
);
/** A password as given (not trimmed: spaces may be part of it); its length is checked in the Core. */
const password = v.pipe(v.string(), v.maxLength(1024, 'is longer than 1024 characters'));
const displayName = v.pipe(v.string(), v.trim(), v.maxLength(100, 'is longer than 100 characters'));

/** Where an account's role applies: everything, or some tags, controllers (by id) and outlets. */
export const scope = v.variant('kind', [
  v.strictObject({ kind: v.literal('all') }),
  v.strictObject({
    kind: v.literal('some'),
    tags: v.pipe(v.array(controllerTag), v.maxLength(64)),
    controllers: v.pipe(v.array(id), v.maxLength(256)),
    outlets: v.pipe(v.array(outletRef), v.maxLength(1024)),
  }),
]);

export const accountCalls = {
  /** Every account, by name: role, scope, whether disabled, how many sessions are signed in. */
  'accounts/list': call(empty).returns<AccountSummary[]>(),
  /** A new account; without a password it cannot sign in with one (BAD_INPUT for a taken name). */
  'accounts/add': call(
    v.strictObject({
      name: accountName,
      displayName: v.optional(displayName),
      role: v.picklist(ROLES),
      scope,
      password: v.optional(password),
    }),
  ).returns<AccountSummary>(),
  /**
   * Change an account in place: its display name (empty: its name), role or scope, each only when
   * given. Its sessions stay signed in and act with the new role and scope from their next request.
   * The last administrator of everything can be neither demoted nor limited (BAD_INPUT).
   */
  'accounts/update': call(
    v.strictObject({
      name: accountName,
      displayName: v.optional(displayName),
      role: v.optional(v.picklist(ROLES)),
      scope: v.optional(scope),
    }),
  ).returns<AccountSummary>(),
  /** A new password: the account's sessions end, and a lock on its name is lifted. */
  'accounts/setPassword': call(v.strictObject({ name: accountName, password })).returns<null>(),
  /** Remove an account and its sessions. */
  'accounts/remove': call(v.strictObject({ name: accountName })).returns<null>(),
  /** Disable (its sessions end, it cannot sign in) or enable an account. */
  'accounts/setDisabled': call(v.strictObject({ name: accountName, disabled: v.boolean() })).returns<null>(),
  /** End every session of an account (it may sign in again); how many were signed in. */
  'accounts/revoke': call(v.strictObject({ name: accountName })).returns<{ sessions: number }>(),
} as const;
