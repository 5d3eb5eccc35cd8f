/** The contract's user calls: create, change and delete users on a controller. */
import type { Handlers } from '../../src-preload/contract';
import { createUser, deleteUser } from './admin-actions';
import { startedSession, type CoreContext } from './core-context';
import type { Actor } from '../../src-preload/model';
import { checkOwnUserDelete } from './users-own';
import { updateUser } from './users-update';

type UserHandlers = Pick<Handlers, 'users/create' | 'users/delete' | 'users/update'>;

export function userHandlers(ctx: CoreContext, actor: Actor): UserHandlers {
  return {
    'users/create': async ({ controllerId, ...user }) => {
      await createUser(await startedSession(ctx, controllerId), user, actor);
      return null;
    },
    'users/delete': async ({ controllerId, name, confirmOwnUser }) => {
      const session = await startedSession(ctx, controllerId);
      // Deleting the user Plugboard logs in as cuts it off: only when the person confirmed it.
      checkOwnUserDelete(session.summary, name, confirmOwnUser === true);
      await deleteUser(session, name, actor);
      return null;
    },
    'users/update': async (input) =>
      updateUser(ctx, await startedSession(ctx, input.controllerId), input, actor),
  };
}
