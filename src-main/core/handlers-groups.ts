/** The contract's group calls: the saved groups, and running one. */
import type { Handlers } from '../../src-preload/contract';
import type { CoreContext } from './core-context';
import { runGroup } from './groups-run';
import type { Actor } from '../../src-preload/model';

type GroupHandlers = Pick<Handlers, 'groups/list' | 'groups/save' | 'groups/remove' | 'groups/run'>;

export function groupHandlers(ctx: CoreContext, actor: Actor): GroupHandlers {
  return {
    'groups/list': async () => ctx.registry.listGroups(),
    'groups/save': async (input) => ctx.registry.saveGroup(input),
    'groups/remove': async ({ id }) => {
      await ctx.registry.removeGroup(id);
      return null;
    },
    'groups/run': async ({ id, action }) => ctx.activity.asOneAction(() => runGroup(ctx, id, action, actor)),
  };
}
