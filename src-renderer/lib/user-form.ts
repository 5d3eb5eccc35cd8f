/**
 * The user form's fields and the rules the controller (and the contract) enforce on them: one form for
 * a new user and for changing one, where the name stays and an empty password keeps the old.
 */
import type { DeviceUser } from '../../src-preload/model';

export interface UserDraft {
  name: string;
  password: string;
  repeat: string;
  isAdmin: boolean;
  isAllowed: boolean;
  /** Index 0 = outlet 1; as long as the controller has outlets. */
  outletAccess: boolean[];
}

export type UserField = 'name' | 'password' | 'repeat';

/** A new user, or an existing one being changed (its name cannot change). */
export type UserFormMode = 'create' | 'edit';

/** A new, empty draft for a controller with `outletCount` outlets. */
export function emptyUserDraft(outletCount: number): UserDraft {
  return {
    name: '',
    password: '',
    repeat: '',
    isAdmin: false,
    isAllowed: true,
    outletAccess: Array(outletCount).fill(false),
  };
}

/** A draft holding an existing user's fields (no password: it is never read back). */
export function userDraftOf(user: DeviceUser, outletCount: number): UserDraft {
  return {
    name: user.name,
    password: '',
    repeat: '',
    isAdmin: user.isAdmin,
    isAllowed: user.isAllowed,
    outletAccess: Array.from({ length: outletCount }, (_, i) => user.outletAccess[i] ?? false),
  };
}

/** One message per wrong field; an empty object means the draft can be sent. */
export function validateUser(
  draft: UserDraft,
  existing: readonly string[],
  mode: UserFormMode = 'create',
): Partial<Record<UserField, string>> {
  const errors: Partial<Record<UserField, string>> = {};
  const name = draft.name.trim();
  if (mode === 'create') {
    if (name === '') errors.name = 'Enter a user name.';
    else if (/[\s:]/.test(name)) errors.name = 'A user name may not contain spaces or colons.';
    else if (name.length > 64) errors.name = 'A user name may be at most 64 characters.';
    else if (existing.some((other) => other.toLowerCase() === name.toLowerCase()))
      errors.name = `A user called “${name}” already exists on this controller.`;
  }
  if (draft.password === '' && mode === 'create') errors.password = 'Enter a password.';
  else if (draft.password.length > 256) errors.password = 'A password may be at most 256 characters.';
  if (draft.password !== '' && draft.repeat !== draft.password)
    errors.repeat = 'The two passwords do not match.';
  return errors;
}

/** The fields of a user to change (as `users/update` takes them); only what differs, and a typed password. */
export interface UserChange {
  password?: string;
  isAdmin?: boolean;
  isAllowed?: boolean;
  outletAccess?: boolean[];
}

/** What an edit changes compared with the user as it is; empty when nothing. */
export function userChange(before: UserDraft, after: UserDraft): UserChange {
  const sameAccess =
    before.outletAccess.length === after.outletAccess.length &&
    before.outletAccess.every((on, i) => on === after.outletAccess[i]);
  return {
    ...(after.password === '' ? {} : { password: after.password }),
    ...(after.isAdmin === before.isAdmin ? {} : { isAdmin: after.isAdmin }),
    ...(after.isAllowed === before.isAllowed ? {} : { isAllowed: after.isAllowed }),
    ...(sameAccess ? {} : { outletAccess: [...after.outletAccess] }),
  };
}
