/** The contract's system calls: SSH on or off, the relay's timing, reboot, and reading the API tree. */
import type { Handlers } from '../../../src-preload/contract';
import { readTree, reboot, setRelayTiming, setSsh } from '../actions/admin-actions';
import { startedSession, type CoreContext } from '../flows/core-context';
import type { Actor } from '../../../src-preload/model';

type SystemHandlers = Pick<
  Handlers,
  'system/setSsh' | 'system/setRelayTiming' | 'system/reboot' | 'system/tree'
>;

export function systemHandlers(ctx: CoreContext, actor: Actor): SystemHandlers {
  return {
    'system/setSsh': async ({ controllerId, enabled }) => {
      await setSsh(await startedSession(ctx, controllerId), enabled, actor);
      return null;
    },
    'system/setRelayTiming': async ({ controllerId, cycleDelay, sequenceDelay }) => {
      const timing = {
        ...(cycleDelay === undefined ? {} : { cycleDelay }),
        ...(sequenceDelay === undefined ? {} : { sequenceDelay }),
      };
      await setRelayTiming(await startedSession(ctx, controllerId), timing, actor);
      return null;
    },
    'system/reboot': async ({ controllerId }) => {
      // The unit is out of reach while it reboots: refused while someone else reserves any of it.
      ctx.reservations.assertMayAct(actor, controllerId, 'all');
      await reboot(await startedSession(ctx, controllerId), actor);
      return null;
    },
    'system/tree': async ({ controllerId, path, depth }) =>
      readTree(await startedSession(ctx, controllerId), path, depth),
  };
}
