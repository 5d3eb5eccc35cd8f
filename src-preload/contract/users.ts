/**
 * The users of a controller (administrators only): adding, changing and deleting them.
 */
import * as v from 'valibot';
import { call, controllerId, secret, userName } from './blocks';

export const userCalls = {
  /**
   * Add a user to the controller (administrators only). `outletAccess[i]` says whether it may switch
   * outlet i + 1; outlets not named are refused to it.
   */
  'users/create': call(
    v.strictObject({
      controllerId,
      name: userName,
      password: secret,
      isAdmin: v.boolean(),
      isAllowed: v.boolean(),
      outletAccess: v.pipe(v.array(v.boolean()), v.maxLength(64)),
    }),
  ).returns<null>(),
  /**
   * Change a user (administrators only): only the fields given. Disallowing the user Plugboard logs in
   * as is refused (BAD_INPUT, detail.confirmOwnUser) unless `confirmOwnUser`. A new password for that user
   * is saved in the keychain too, after the controller accepted it; `warning` says when that
   * keychain write failed (the controller has the new password) and what to do.
   */
  'users/update': call(
    v.strictObject({
      controllerId,
      name: userName,
      password: v.optional(secret),
      isAdmin: v.optional(v.boolean()),
      isAllowed: v.optional(v.boolean()),
      outletAccess: v.optional(v.pipe(v.array(v.boolean()), v.maxLength(64))),
      /** Needed to stop the user Plugboard logs in as from logging in (`isAllowed: false`). */
      confirmOwnUser: v.optional(v.boolean()),
    }),
  ).returns<{ warning: string | null }>(),
  /**
   * Delete a user from the controller (administrators only). Deleting the user Plugboard itself logs in
   * as is refused (BAD_INPUT, detail.confirmOwnUser) unless `confirmOwnUser` is true.
   */
  'users/delete': call(
    v.strictObject({ controllerId, name: userName, confirmOwnUser: v.optional(v.boolean()) }),
  ).returns<null>(),
} as const;
