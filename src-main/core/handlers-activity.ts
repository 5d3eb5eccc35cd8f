/** The contract's activity call: the activity log, newest first. */
import type { Handlers } from '../../src-preload/contract';
import type { CoreContext } from './core-context';

type ActivityHandlers = Pick<Handlers, 'activity/list'>;

export function activityHandlers(ctx: CoreContext): ActivityHandlers {
  return {
    'activity/list': async (filter) => ctx.activity.list(filter),
  };
}
