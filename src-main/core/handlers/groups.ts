/** The contract's group calls: the saved groups and running one (a sequence, when the group is one). */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';
import { runGroup } from '../sequences/groups-run';
import type { Actor } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';

type GroupHandlers = Pick<Handlers, 'groups/list' | 'groups/save' | 'groups/remove' | 'groups/run'>;

export function groupHandlers(ctx: CoreContext, actor: Actor): GroupHandlers {
  return {
    'groups/list': async () => ctx.registry.listGroups(),
    'groups/save': async (input) => ctx.registry.saveGroup(input),
    'groups/remove': async ({ id }) => {
      await ctx.registry.removeGroup(id);
      return null;
    },
    'groups/run': async ({ id, action, confirmCritical }) => {
      const confirmed = confirmCritical === true;
      if (ctx.registry.getGroupOrThrow(id).kind !== 'sequence')
        return ctx.activity.asOneAction(() => runGroup(ctx, id, action, actor, confirmed));
      if (action === 'cycle')
        throw new PlugboardError('BAD_INPUT', 'A sequence is switched on or off, not cycled.', undefined, {
          action: 'Run it off, then on.',
        });
      const runId = await ctx.sequences.start(id, action, actor, confirmed);
      return { results: [], runId };
    },
  };
}
