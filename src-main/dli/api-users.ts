/** Users on the controller (admin only): list, create, delete by name. Passwords are never read back. */
import type { Connection, Scope } from './connection';
import { PlugboardError } from '../shared/errors';
import { errorForStatus, type RequestContext } from './http-errors';
import { ensureOutletCount, getJson } from './shared-reads';
import { usersSchema } from './schemas';
import type { CallOptions, DeviceUser, NewUser, UserChange } from './types';

export class UsersApi {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  list(options?: CallOptions): Promise<DeviceUser[]> {
    return this.#connection.run(options, (scope) => this.#read(scope));
  }

  /** Create a user; `outletAccess` is padded with `false` to the controller's outlet count. */
  create(user: NewUser, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    try {
      checkUser(user);
    } catch (error) {
      return Promise.reject(error);
    }
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const count = await ensureOutletCount(c, slot);
        if (user.outletAccess.length > count) {
          throw new PlugboardError(
            'BAD_INPUT',
            `${c.controller} has ${count} outlets; the access list names ${user.outletAccess.length}.`,
          );
        }
        if ((await this.#read(slot)).some((existing) => existing.name === user.name)) {
          throw new PlugboardError(
            'BAD_INPUT',
            `${c.controller} already has a user named "${user.name}"; pick another name.`,
          );
        }
        const access = Array.from({ length: count }, (_, i) => user.outletAccess[i] ?? false);
        const response = await slot.request({
          method: 'POST',
          path: 'auth/users/',
          json: {
            name: user.name,
            password: user.password,
            is_admin: user.isAdmin,
            is_allowed: user.isAllowed,
            outlet_access: access,
          },
          guard: 'xhr',
        });
        if (![200, 201, 204].includes(response.status)) {
          throw errorForStatus(response, this.#context(`create user "${user.name}"`));
        }
      }),
    );
  }

  /**
   * Delete a user by name. The controller addresses users by position and re-numbers them after a
   * delete, so the position is looked up right before deleting, with nothing else sent in between.
   */
  delete(name: string, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const index = (await this.#read(slot)).findIndex((user) => user.name === name);
        if (index < 0) throw new PlugboardError('BAD_INPUT', `${c.controller} has no user named "${name}".`);
        const response = await slot.request({ method: 'DELETE', path: `auth/users/${index}/`, guard: 'xhr' });
        if (![200, 204].includes(response.status)) {
          throw errorForStatus(response, this.#context(`delete user "${name}"`));
        }
      }),
    );
  }

  /**
   * Change a user's fields in one request: a JSON patch (RFC 6902) of `auth/users/<index>/`, so the
   * controller applies all of them or none. As for delete, the position is looked up right before.
   */
  update(name: string, change: UserChange, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    try {
      checkChange(name, change);
    } catch (error) {
      return Promise.reject(error);
    }
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const users = await this.#read(slot);
        const index = users.findIndex((user) => user.name === name);
        if (index < 0) throw new PlugboardError('BAD_INPUT', `${c.controller} has no user named "${name}".`);
        const ops: { op: 'replace'; path: string; value: unknown }[] = [];
        if (change.outletAccess) {
          const count = await ensureOutletCount(c, slot);
          if (change.outletAccess.length > count) {
            throw new PlugboardError(
              'BAD_INPUT',
              `${c.controller} has ${count} outlets; the access list names ${change.outletAccess.length}.`,
            );
          }
          const access = Array.from({ length: count }, (_, i) => change.outletAccess?.[i] ?? false);
          ops.push({ op: 'replace', path: '/outlet_access', value: access });
        }
        if (change.isAdmin !== undefined)
          ops.push({ op: 'replace', path: '/is_admin', value: change.isAdmin });
        if (change.isAllowed !== undefined)
          ops.push({ op: 'replace', path: '/is_allowed', value: change.isAllowed });
        if (change.password !== undefined)
          ops.push({ op: 'replace', path: '/password', value: change.password });
        const response = await slot.request({
          method: 'PATCH',
          path: `auth/users/${index}/`,
          jsonPatch: ops,
          guard: 'xhr',
        });
        if (![200, 204].includes(response.status)) {
          throw errorForStatus(response, this.#context(`change user "${name}"`));
        }
      }),
    );
  }

  async #read(scope: Scope): Promise<DeviceUser[]> {
    const users = await getJson(scope, 'auth/users/', usersSchema, this.#context('list the users'));
    return users.map((raw) => ({
      name: raw.name,
      isAdmin: raw.is_admin,
      isAllowed: raw.is_allowed,
      outletAccess: raw.outlet_access,
    }));
  }

  #context(action: string): RequestContext {
    const c = this.#connection;
    return c.context(action, {
      forbidden: `Only administrators can manage users on ${c.controller}, and ${c.notAdmin}`,
      forbiddenAction: 'Log in as an administrator.',
    });
  }
}

function checkUser(user: NewUser): void {
  if (!/^[^\s:]{1,64}$/.test(user.name)) {
    throw new PlugboardError('BAD_INPUT', 'A user name must be 1 to 64 characters without spaces or colons.');
  }
  if (user.password.length === 0 || user.password.length > 256) {
    throw new PlugboardError('BAD_INPUT', `The password for "${user.name}" must be 1 to 256 characters.`);
  }
}

function checkChange(name: string, change: UserChange): void {
  const given = [change.password, change.isAdmin, change.isAllowed, change.outletAccess].filter(
    (field) => field !== undefined,
  );
  if (given.length === 0) throw new PlugboardError('BAD_INPUT', `Nothing to change for user "${name}".`);
  if (change.password !== undefined && (change.password.length === 0 || change.password.length > 256)) {
    throw new PlugboardError('BAD_INPUT', `The password for "${name}" must be 1 to 256 characters.`);
  }
}
