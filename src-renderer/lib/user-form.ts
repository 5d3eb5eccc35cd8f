/** The create-user form's fields and the rules the controller (and the contract) enforce on them. */
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

/** One message per wrong field; an empty object means the draft can be sent. */
export function validateUser(
  draft: UserDraft,
  existing: readonly string[],
): Partial<Record<UserField, string>> {
  const errors: Partial<Record<UserField, string>> = {};
  const name = draft.name.trim();
  if (name === '') errors.name = 'Enter a user name.';
  else if (/[\s:]/.test(name)) errors.name = 'A user name may not contain spaces or colons.';
  else if (name.length > 64) errors.name = 'A user name may be at most 64 characters.';
  else if (existing.some((other) => other.toLowerCase() === name.toLowerCase()))
    errors.name = `A user called “${name}” already exists on this controller.`;
  if (draft.password === '') errors.password = 'Enter a password.';
  else if (draft.password.length > 256) errors.password = 'A password may be at most 256 characters.';
  if (draft.password !== '' && draft.repeat !== draft.password)
    errors.repeat = 'The two passwords do not match.';
  return errors;
}
