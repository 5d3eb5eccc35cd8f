import { badRequest, conflict } from './http-error';

/** A user account on the controller. */
export interface UserRecord {
  name: string;
  password: string;
  isAdmin: boolean;
  isAllowed: boolean;
  /** One flag per outlet, index 0 = outlet 1. */
  outletAccess: boolean[];
  /** The External APIs page's grant (only checked with the externalApiGrant option); absent = granted. */
  externalApis?: boolean;
}

const USER_FIELDS = ['name', 'password', 'is_admin', 'is_allowed', 'outlet_access'];
// Printable characters only: a name ends up in a digest `username="…"` field.
const NAME_PATTERN = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

export function parseUserName(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 32 || !NAME_PATTERN.test(value)) {
    throw badRequest(
      'name must be 1–32 printable characters without leading or trailing spaces.',
      'bad_value',
    );
  }
  if (value.includes('"') || value.includes(':') || value.includes('\\')) {
    throw badRequest('name may not contain ", : or \\ (they break HTTP digest logins).', 'bad_value');
  }
  return value;
}

export function parsePassword(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64 || !/^[\x20-\x7e]+$/.test(value)) {
    throw badRequest('password must be 1–64 printable ASCII characters.', 'bad_value');
  }
  return value;
}

export function parseFlag(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw badRequest(`${field} must be true or false.`, 'bad_value');
  return value;
}

export function parseOutletAccess(value: unknown, outlets: number): boolean[] {
  if (!Array.isArray(value) || value.length !== outlets || value.some((flag) => typeof flag !== 'boolean')) {
    throw badRequest(`outlet_access must be an array of ${outlets} booleans, one per outlet.`, 'bad_value');
  }
  return value as boolean[];
}

/** The user list, `auth/users/`: an array that re-indexes when a user is deleted. */
export class Users {
  readonly list: UserRecord[];

  constructor(
    admin: { name: string; password: string },
    private readonly outlets: number,
  ) {
    this.list = [
      {
        name: admin.name,
        password: admin.password,
        isAdmin: true,
        isAllowed: true,
        outletAccess: Array(outlets).fill(true),
      },
    ];
  }

  find(name: string): UserRecord | undefined {
    return this.list.find((user) => user.name === name);
  }

  /** Validates a create body completely; nothing changes until the returned record is added. */
  parseNew(body: unknown): UserRecord {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest(
        'A new user is a JSON object with name, password, is_admin, is_allowed and outlet_access.',
        'bad_body',
      );
    }
    const fields = body as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((key) => !USER_FIELDS.includes(key));
    if (unknown.length > 0) throw badRequest(`Unknown user field: ${unknown.join(', ')}.`, 'bad_body');
    if (!('name' in fields) || !('password' in fields)) {
      throw badRequest('A new user needs at least name and password.', 'bad_body');
    }
    const user: UserRecord = {
      name: parseUserName(fields.name),
      password: parsePassword(fields.password),
      isAdmin: 'is_admin' in fields ? parseFlag('is_admin', fields.is_admin) : false,
      isAllowed: 'is_allowed' in fields ? parseFlag('is_allowed', fields.is_allowed) : true,
      outletAccess:
        'outlet_access' in fields
          ? parseOutletAccess(fields.outlet_access, this.outlets)
          : Array(this.outlets).fill(false),
    };
    this.assertNameFree(user.name);
    return user;
  }

  add(user: UserRecord): number {
    this.assertNameFree(user.name);
    this.list.push(user);
    return this.list.length - 1;
  }

  assertNameFree(name: string, except?: UserRecord): void {
    const clash = this.list.find((user) => user !== except && user.name.toLowerCase() === name.toLowerCase());
    if (clash) throw conflict('user_exists', `A user named "${clash.name}" already exists.`);
  }

  /** Refuses to leave the controller without an administrator who may log in. */
  assertAdminRemains(without: UserRecord, replacement?: UserRecord): void {
    const admins = this.list
      .map((user) => (user === without ? replacement : user))
      .filter((user) => user?.isAdmin && user.isAllowed);
    if (admins.length === 0) {
      throw conflict('last_admin', 'This is the last administrator who may log in; add another one first.');
    }
  }

  remove(index: number): void {
    const user = this.list[index];
    if (!user) return;
    this.assertAdminRemains(user);
    this.list.splice(index, 1);
  }
}
