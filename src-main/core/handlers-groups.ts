/** The contract's group calls: the saved groups, and running one. */
import type { Handlers } from '../../src-preload/contract';
import type { CoreContext } from './core-context';
import { runGroup } from './groups-run';
import type { Source } from './outlet-actions';

type GroupHandlers = Pick<Handlers, 'groups/list' | 'groups/save' | 'groups/remove' | 'groups/run'>;

export function groupHandlers(ctx: CoreContext, source: Source): GroupHandlers {
  return {
    'groups/list': async () => ctx.registry.listGroups(),
    'groups/save': async (input) => ctx.registry.saveGroup(input),
    'groups/remove': async ({ id }) => {
      await ctx.registry.removeGroup(id);
      return null;
    },
    'groups/run': async ({ id, action }) => runGroup(ctx, id, action, source),
  };
}
