/** The contract's user calls: create, change and delete users on a controller. */
import type { Handlers } from '../../../src-preload/contract';
import { createUser, deleteUser } from '../actions/admin-actions';
import { startedSession, type CoreContext } from '../flows/core-context';
import type { Actor } from '../../../src-preload/model';
import { checkOwnUserDelete } from '../actions/users-own';
import { updateUser } from '../flows/users-update';
import { grantedByNewUser, grantedByUserChange, grantsNothing } from '../reservations/reservation-grants';

type UserHandlers = Pick<Handlers, 'users/create' | 'users/delete' | 'users/update'>;

/** Outlets a new login on the unit could switch are checked like a switch of them (reservation-grants.ts). */
function mayGrant(ctx: CoreContext, actor: Actor, controllerId: string, outlets: 'all' | number[]): void {
  if (!grantsNothing(outlets)) ctx.reservations.assertMayAct(actor, controllerId, outlets);
}

export function userHandlers(ctx: CoreContext, actor: Actor): UserHandlers {
  return {
    'users/create': async ({ controllerId, ...user }) => {
      const session = await startedSession(ctx, controllerId);
      mayGrant(ctx, actor, controllerId, grantedByNewUser(user));
      await createUser(session, user, actor);
      return null;
    },
    'users/delete': async ({ controllerId, name, confirmOwnUser }) => {
      const session = await startedSession(ctx, controllerId);
      // Deleting the user Plugboard logs in as cuts it off: only when the person confirmed it.
      checkOwnUserDelete(session.summary, name, confirmOwnUser === true);
      await deleteUser(session, name, actor);
      return null;
    },
    'users/update': async (input) => {
      const session = await startedSession(ctx, input.controllerId);
      const current = session.state.users?.find((u) => u.name === input.name);
      mayGrant(ctx, actor, input.controllerId, grantedByUserChange(input, current));
      return updateUser(ctx, session, input, actor);
    },
  };
}
