/** The contract's app calls: what Plugboard is, everything the window shows at start, and who is asking. */
import type { Handlers } from '../../../src-preload/contract';
import type { Caller, CallerInfo } from '../../../src-preload/model';
import type { CoreContext } from '../flows/core-context';

type AppHandlers = Pick<Handlers, 'app/info' | 'app/snapshot' | 'app/whoami'>;

export function appHandlers(ctx: CoreContext, caller: Caller): AppHandlers {
  return {
    'app/info': async () => ctx.info,
    'app/snapshot': async () => {
      const controllers = ctx.registry.list();
      return {
        info: ctx.info,
        controllers,
        states: controllers.map((c) => ctx.sessions.stateOf(c.id)),
        groups: ctx.registry.listGroups(),
        settings: ctx.settings.get(),
      };
    },
    // An account's display name comes from the lab store; anyone else is called by their name.
    'app/whoami': async (): Promise<CallerInfo> => {
      const account = ctx.accounts
        ? (await ctx.accounts.list()).find((a) => a.name === caller.who)
        : undefined;
      return {
        who: caller.who,
        displayName: account?.displayName ?? caller.who,
        role: caller.role,
        scope: caller.scope ?? { kind: 'all' },
        door: caller.door,
      };
    },
  };
}
