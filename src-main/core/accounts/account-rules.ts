/**
 * What an account is made of, checked once: its name (folded to lower case), display name, role and
 * scope, and a password's length, each refused with a sentence saying what to give instead.
 */
import { ROLES, type Role, type Scope } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';

export const ACCOUNT_NAME = /^[a-z0-9._-]{1,64}$/;
/** Long enough that the sign-in's slowing and locking, not guessing, is what stops an attacker. */
export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 1024;

/** The account name as kept: lower case; refused unless letters, digits, `.`, `_` or `-`. */
export function accountName(name: string): string {
  const folded = name.trim().toLowerCase();
  if (!ACCOUNT_NAME.test(folded))
    throw new PlugboardError(
      'BAD_INPUT',
      `"${name.slice(0, 40)}" is not an account name: give 1–64 letters, digits, ".", "_" or "-".`,
    );
  return folded;
}

export function accountRole(role: string): Role {
  if (!ROLES.includes(role as Role))
    throw new PlugboardError('BAD_INPUT', `"${role.slice(0, 20)}" is not a role: give ${ROLES.join(', ')}.`);
  return role as Role;
}

/** Refuse a password too short or too long to be one (never saying what it was). */
export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD)
    throw new PlugboardError(
      'BAD_INPUT',
      `The password is shorter than ${MIN_PASSWORD} characters: choose a longer one (a few words make a good one).`,
    );
  if (password.length > MAX_PASSWORD)
    throw new PlugboardError('BAD_INPUT', `The password is longer than ${MAX_PASSWORD} characters.`);
}

/** A stored scope read back; one that is not a Scope (a hand-edited row) gives nothing: an empty scope. */
export function parseScope(text: string): Scope {
  try {
    const value = JSON.parse(text) as Scope;
    if (value.kind === 'all') return { kind: 'all' };
    if (value.kind === 'some')
      return {
        kind: 'some',
        tags: Array.isArray(value.tags) ? value.tags.filter((t) => typeof t === 'string') : [],
        controllers: Array.isArray(value.controllers)
          ? value.controllers.filter((c) => typeof c === 'string')
          : [],
        outlets: Array.isArray(value.outlets) ? value.outlets : [],
      };
  } catch {
    // Falls through to the empty scope: the role then applies nowhere, it may only look.
  }
  return { kind: 'some', tags: [], controllers: [], outlets: [] };
}
