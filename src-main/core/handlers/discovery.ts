/** The contract's discovery calls: start and stop a search for controllers on the network. */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';

type DiscoveryHandlers = Pick<Handlers, 'discovery/start' | 'discovery/stop'>;

export function discoveryHandlers(ctx: CoreContext): DiscoveryHandlers {
  return {
    'discovery/start': async (input) => ctx.discovery.start(input),
    'discovery/stop': async ({ runId }) => {
      ctx.discovery.stop(runId);
      return null;
    },
  };
}
