import type { Controller } from './controller';
import { badRequest, conflict, notFound } from './http-error';
import { CLIENT_ID_PATTERN } from './tokens';
import { array, type Container, map, object, readOnly, writable, type Apply } from './tree';
import { parseFlag, parseOutletAccess, parsePassword, parseUserName, type UserRecord } from './users';

const PATCH_FIELDS = [
  'name',
  'password',
  'is_admin',
  'is_allowed',
  'outlet_access',
  'old_password',
  'new_password',
];

/**
 * PATCH of a user: several fields at once, all checked before any changes. `old_password` +
 * `new_password` change a password only when the old one matches (the documented way to change the
 * admin password through `auth/users/is_admin=true/`).
 */
function patchUser(c: Controller, user: UserRecord, fields: Record<string, unknown>): Apply {
  const unknown = Object.keys(fields).filter((key) => !PATCH_FIELDS.includes(key));
  if (unknown.length > 0) throw badRequest(`Unknown user field: ${unknown.join(', ')}.`, 'bad_body');
  const next: UserRecord = { ...user, outletAccess: [...user.outletAccess] };
  if ('name' in fields) {
    next.name = parseUserName(fields.name);
    c.users.assertNameFree(next.name, user);
  }
  if ('password' in fields) next.password = parsePassword(fields.password);
  if ('new_password' in fields) {
    if (fields.old_password === undefined)
      throw badRequest('new_password needs old_password as well.', 'bad_body');
    if (String(fields.old_password) !== user.password)
      throw conflict('wrong_password', 'old_password does not match.');
    next.password = parsePassword(String(fields.new_password));
  } else if ('old_password' in fields) {
    throw badRequest('old_password goes together with new_password.', 'bad_body');
  }
  if ('is_admin' in fields) next.isAdmin = parseFlag('is_admin', fields.is_admin);
  if ('is_allowed' in fields) next.isAllowed = parseFlag('is_allowed', fields.is_allowed);
  if ('outlet_access' in fields) next.outletAccess = parseOutletAccess(fields.outlet_access, c.relay.count);
  c.users.assertAdminRemains(user, next);
  return () => Object.assign(user, next);
}

function userNode(c: Controller, user: UserRecord): Container {
  const flag = (field: 'is_admin' | 'is_allowed', key: 'isAdmin' | 'isAllowed') =>
    writable(
      () => user[key],
      (value) => {
        const on = parseFlag(field, value);
        c.users.assertAdminRemains(user, { ...user, [key]: on });
        return () => (user[key] = on);
      },
    );
  return object(
    () => ({
      name: writable(
        () => user.name,
        (value) => {
          const name = parseUserName(value);
          c.users.assertNameFree(name, user);
          return () => (user.name = name);
        },
      ),
      // Write-only: never part of a read.
      password: {
        kind: 'leaf',
        set: (value) => {
          const password = parsePassword(value);
          return () => (user.password = password);
        },
      },
      is_admin: flag('is_admin', 'isAdmin'),
      is_allowed: flag('is_allowed', 'isAllowed'),
      outlet_access: writable(
        () => [...user.outletAccess],
        (value) => {
          const access = parseOutletAccess(value, c.relay.count);
          return () => (user.outletAccess = access);
        },
      ),
    }),
    { patch: (fields) => patchUser(c, user, fields) },
  );
}

function usersNode(c: Controller): Container {
  return array(() => c.users.list.map((user) => userNode(c, user)), {
    append: (value) => {
      const user = c.users.parseNew(value);
      return { key: String(c.users.list.length), apply: () => c.users.add(user) };
    },
    removeChild: (key) => {
      const index = Number(key);
      const user = c.users.list[index];
      if (!user) throw notFound(`There is no user ${key}.`);
      c.users.assertAdminRemains(user);
      return () => c.users.remove(index);
    },
  });
}

function clientsNode(c: Controller): Container {
  return map(
    () =>
      c.clients.ids().map((id) => {
        const record = c.clients.record(id);
        return [
          id,
          object(() => ({
            name: readOnly(() => record?.name ?? ''),
            redirect_urls: readOnly(() => record?.redirect_urls ?? {}),
            scopes: readOnly(() => record?.scopes ?? {}),
            refresh_tokens: readOnly(() => record?.refresh_tokens ?? {}),
            access_tokens: readOnly(() => record?.access_tokens ?? {}),
          })),
        ];
      }),
    {
      putChild: (key, value) => {
        if (!CLIENT_ID_PATTERN.test(key))
          throw badRequest('A client id is 1–64 letters, digits, _ or -.', 'bad_uri');
        const client = c.clients.parse(value);
        return () => c.clients.put(key, client);
      },
      removeChild: (key) => () => void c.clients.remove(key),
    },
  );
}

export function authNode(c: Controller): Container {
  return object(() => ({
    users: usersNode(c),
    realm: readOnly(() => c.realm),
    clients: c.features.tokens && clientsNode(c),
  }));
}
