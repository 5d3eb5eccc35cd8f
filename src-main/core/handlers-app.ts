/** The contract's group, activity, settings and discovery calls. */
import type { Handlers } from '../../src-preload/contract';
import type { CoreContext } from './core-context';
import { runGroup } from './groups-run';
import type { Source } from './outlet-actions';

type AppHandlers = Pick<
  Handlers,
  | 'groups/list'
  | 'groups/save'
  | 'groups/remove'
  | 'groups/run'
  | 'activity/list'
  | 'settings/get'
  | 'settings/set'
  | 'discovery/start'
  | 'discovery/stop'
>;

export function appHandlers(ctx: CoreContext, source: Source): AppHandlers {
  return {
    'groups/list': async () => ctx.registry.listGroups(),
    'groups/save': async (input) => ctx.registry.saveGroup(input),
    'groups/remove': async ({ id }) => {
      await ctx.registry.removeGroup(id);
      return null;
    },
    'groups/run': async ({ id, action }) => runGroup(ctx, id, action, source),
    'activity/list': async ({ controllerId, limit }) => ctx.activity.list({ controllerId, limit }),
    'settings/get': async () => ctx.settings.get(),
    'settings/set': async (input) => ctx.settings.update(input),
    'discovery/start': async (input) => ctx.discovery.start(input),
    'discovery/stop': async ({ runId }) => {
      ctx.discovery.stop(runId);
      return null;
    },
  };
}
