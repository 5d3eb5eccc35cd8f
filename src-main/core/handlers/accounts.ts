/** The contract's account calls: list, add, set a password, remove, disable or enable, revoke sessions. */
import type { Handlers } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import type { Accounts } from '../accounts/accounts';
import type { CoreContext } from '../flows/core-context';

type AccountHandlers = Pick<
  Handlers,
  | 'accounts/list'
  | 'accounts/add'
  | 'accounts/setPassword'
  | 'accounts/remove'
  | 'accounts/setDisabled'
  | 'accounts/revoke'
>;

/** A Core without a lab store (a one-off command on an unsaved unit) has no accounts. */
function kept(ctx: CoreContext): Accounts {
  if (ctx.accounts) return ctx.accounts;
  throw new PlugboardError(
    'BAD_INPUT',
    'This Plugboard keeps no accounts: they live in the lab store of a config folder or a lab service.',
    undefined,
    { action: "Run the command without --url, on the service's machine or with --service." },
  );
}

export function accountHandlers(ctx: CoreContext): AccountHandlers {
  return {
    'accounts/list': async () => kept(ctx).list(),
    'accounts/add': async (input) => kept(ctx).add(input),
    'accounts/setPassword': async ({ name, password }) => {
      await kept(ctx).setPassword(name, password);
      return null;
    },
    'accounts/remove': async ({ name }) => {
      await kept(ctx).remove(name);
      return null;
    },
    'accounts/setDisabled': async ({ name, disabled }) => {
      await kept(ctx).setDisabled(name, disabled);
      return null;
    },
    'accounts/revoke': async ({ name }) => ({ sessions: await kept(ctx).revoke(name) }),
  };
}
