/** The contract's account calls: list, add, set a password, remove, disable or enable, revoke sessions. */
import type { Handlers } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import type { Actor, Scope } from '../../../src-preload/model';
import type { Accounts } from '../accounts/accounts';
import { recordAccountChange } from '../flows/sign-in-log';
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

function scopeWords(scope: Scope): string {
  if (scope.kind === 'all') return 'everywhere';
  const parts = [
    ...scope.tags.map((tag) => `tag ${tag}`),
    ...scope.controllers.map((id) => `controller ${id}`),
    ...scope.outlets.map((o) => `outlet ${o.controllerId}:${o.outlet}`),
  ];
  return parts.length ? parts.join(', ') : 'nowhere';
}

/** Each change is in the activity log as the administrator's ("added account bob (operator, tag rack-7)"). */
export function accountHandlers(ctx: CoreContext, actor: Actor): AccountHandlers {
  const note = (action: string) => recordAccountChange(ctx.activity, actor, action);
  return {
    'accounts/list': async () => kept(ctx).list(),
    'accounts/add': async (input) => {
      const added = await kept(ctx).add(input);
      note(`added account ${added.name} (${added.role}, ${scopeWords(added.scope)})`);
      return added;
    },
    'accounts/setPassword': async ({ name, password }) => {
      await kept(ctx).setPassword(name, password);
      note(`set a new password for account ${name}`);
      return null;
    },
    'accounts/remove': async ({ name }) => {
      await kept(ctx).remove(name);
      note(`removed account ${name}`);
      return null;
    },
    'accounts/setDisabled': async ({ name, disabled }) => {
      await kept(ctx).setDisabled(name, disabled);
      note(`${disabled ? 'disabled' : 'enabled'} account ${name}`);
      return null;
    },
    'accounts/revoke': async ({ name }) => {
      const sessions = await kept(ctx).revoke(name);
      note(`ended ${sessions} session${sessions === 1 ? '' : 's'} of account ${name}`);
      return { sessions };
    },
  };
}
