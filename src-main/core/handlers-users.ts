/** The contract's user calls: create and delete users on a controller. */
import type { Handlers } from '../../src-preload/contract';
import { createUser, deleteUser } from './admin-actions';
import { startedSession, type CoreContext } from './core-context';
import type { Actor } from '../../src-preload/model';

type UserHandlers = Pick<Handlers, 'users/create' | 'users/delete'>;

export function userHandlers(ctx: CoreContext, actor: Actor): UserHandlers {
  return {
    'users/create': async ({ controllerId, ...user }) => {
      await createUser(await startedSession(ctx, controllerId), user, actor);
      return null;
    },
    'users/delete': async ({ controllerId, name }) => {
      await deleteUser(await startedSession(ctx, controllerId), name, actor);
      return null;
    },
  };
}
