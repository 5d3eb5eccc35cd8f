/** The contract's activity calls: the activity log, newest first, and its export (CSV, JSON lines). */
import type { Handlers } from '../../../src-preload/contract';
import type { ActivityEntry } from '../../../src-preload/model';
import type { CoreContext } from '../flows/core-context';
import { activityCsv, activityJsonl, exportFilename } from '../activity/activity-export';

type ActivityHandlers = Pick<Handlers, 'activity/list' | 'activity/export'>;

export function activityHandlers(ctx: CoreContext): ActivityHandlers {
  return {
    'activity/list': (filter) => ctx.activity.query(filter),
    'activity/export': async ({ format, limit, order, ...filter }) => {
      // The `limit` at the end `order` says, oldest first; without one, the store's pages in order.
      let entries: ActivityEntry[];
      if (limit !== undefined) {
        entries = await ctx.activity.query({ ...filter, limit, order });
        if (order !== 'oldest') entries.reverse();
      } else {
        entries = [];
        for await (const page of ctx.activity.oldestFirst(filter)) entries.push(...page);
      }
      return {
        filename: exportFilename('activity', format, ctx.clock.now()),
        text: format === 'csv' ? activityCsv(entries) : activityJsonl(entries),
      };
    },
  };
}
