/** The contract's app calls: what Plugboard is, and everything the window shows at start. */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';

type AppHandlers = Pick<Handlers, 'app/info' | 'app/snapshot'>;

export function appHandlers(ctx: CoreContext): AppHandlers {
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
  };
}
