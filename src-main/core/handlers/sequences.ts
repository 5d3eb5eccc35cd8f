/** The contract's sequence calls: saving a group as steps, running it step by step, its runs. */
import type { Handlers } from '../../../src-preload/contract';
import type { Actor } from '../../../src-preload/model';
import type { CoreContext } from '../flows/core-context';

type SequenceHandlers = Pick<
  Handlers,
  'sequences/save' | 'sequences/run' | 'sequences/abort' | 'sequences/runs' | 'sequences/dismiss'
>;

export function sequenceHandlers(ctx: CoreContext, actor: Actor): SequenceHandlers {
  return {
    'sequences/save': async ({ id, name, steps }) =>
      ctx.registry.saveGroup({ ...(id ? { id } : {}), name, members: [], steps }),
    'sequences/run': async ({ id, action, confirmCritical }) => ({
      runId: await ctx.sequences.start(id, action, actor, confirmCritical === true),
    }),
    'sequences/abort': async ({ runId }) => ctx.sequences.abort(runId),
    'sequences/runs': async () => ctx.sequences.list(),
    'sequences/dismiss': async ({ runId }) => {
      ctx.sequences.dismiss(runId);
      return null;
    },
  };
}
