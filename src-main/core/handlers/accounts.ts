/** The contract's account calls: list, add, change in place, set a password, remove, disable or enable, revoke sessions. */
import type { Handlers } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import type { Actor, Scope } from '../../../src-preload/model';
import type { Accounts, SignedIn } from '../accounts/accounts';
import { recordAccountChange } from '../flows/sign-in-log';
import type { CoreContext } from '../flows/core-context';

type AccountHandlers = Pick<
  Handlers,
  | 'accounts/list'
  | 'accounts/add'
  | 'accounts/update'
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

/** What changed of an account, in words ("role operator → admin, scope tag rack-7 → everywhere"). */
function changeWords(before: SignedIn, after: SignedIn): string[] {
  const changes: string[] = [];
  if (after.displayName !== before.displayName)
    changes.push(`display name "${before.displayName}" → "${after.displayName}"`);
  if (after.role !== before.role) changes.push(`role ${before.role} → ${after.role}`);
  const [was, is] = [scopeWords(before.scope), scopeWords(after.scope)];
  if (is !== was) changes.push(`scope ${was} → ${is}`);
  return changes;
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
    'accounts/update': async (input) => {
      const { before, after } = await kept(ctx).update(input);
      const changes = changeWords(before, after);
      // Nothing changed, nothing to log: the answer still says how the account is.
      if (changes.length) note(`changed account ${after.name}: ${changes.join(', ')}`);
      return after;
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
