/** The contract's activity calls: the activity log, newest first, and its export (CSV, JSON lines). */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';
import { activityCsv, activityJsonl, exportFilename } from '../activity/activity-export';

type ActivityHandlers = Pick<Handlers, 'activity/list' | 'activity/export'>;

export function activityHandlers(ctx: CoreContext): ActivityHandlers {
  return {
    'activity/list': async (filter) => ctx.activity.list(filter),
    'activity/export': async ({ format, ...filter }) => {
      const entries = ctx.activity.list(filter).reverse();
      return {
        filename: exportFilename('activity', format, ctx.clock.now()),
        text: format === 'csv' ? activityCsv(entries) : activityJsonl(entries),
      };
    },
  };
}
