/** The contract's outlet calls: switch, cycle, rename and configure outlets on one controller. */
import type { Actor } from '../../../src-preload/model';
import type { Handlers } from '../../../src-preload/contract';
import { startedSession, type CoreContext } from '../flows/core-context';
import { cycleWithDelay } from '../actions/cycle-delayed';
import {
  configureOutlet,
  cycleOutlets,
  renameOutlet,
  setOutlets,
  switchOutlets,
} from '../actions/outlet-actions';
import { permitSwitch } from '../actions/switch-rules';

type OutletHandlers = Pick<
  Handlers,
  'outlets/set' | 'outlets/cycle' | 'outlets/switch' | 'outlets/rename' | 'outlets/configure'
>;

export function outletHandlers(ctx: CoreContext, actor: Actor): OutletHandlers {
  const session = (id: string) => startedSession(ctx, id);
  return {
    'outlets/set': async ({ controllerId, outlets, on, transient, confirmCritical }) => {
      const s = await session(controllerId);
      const part = { session: s, outlets, losing: on ? [] : outlets };
      const permit = await permitSwitch(actor, part, confirmCritical === true);
      return setOutlets(s, permit, outlets, on, transient ?? false, actor);
    },
    'outlets/cycle': async ({ controllerId, outlet, delay, confirmCritical }) => {
      const s = await session(controllerId);
      const permit = await permitSwitch(
        actor,
        { session: s, outlets: [outlet], losing: [outlet] },
        confirmCritical === true,
      );
      if (delay !== undefined)
        return cycleWithDelay(
          s,
          permit,
          outlet,
          delay,
          actor,
          ctx.operations,
          ctx.requestTimeoutMs,
          ctx.promises,
        );
      return cycleOutlets(s, permit, [outlet], actor);
    },
    'outlets/switch': async ({ controllerId, changes, transient, confirmCritical }) => {
      const s = await session(controllerId);
      const part = {
        session: s,
        outlets: changes.map((c) => c.outlet),
        losing: changes.filter((c) => !c.on).map((c) => c.outlet),
      };
      const permit = await permitSwitch(actor, part, confirmCritical === true);
      return switchOutlets(s, permit, changes, transient ?? true, actor);
    },
    'outlets/rename': async ({ controllerId, outlet, name }) => {
      await renameOutlet(await session(controllerId), outlet, name, actor);
      return null;
    },
    'outlets/configure': async ({ controllerId, outlet, cycleDelay, critical }) => {
      const settings = {
        ...(cycleDelay === undefined ? {} : { cycleDelay }),
        ...(critical === undefined ? {} : { critical }),
      };
      await configureOutlet(await session(controllerId), outlet, settings, actor);
      return null;
    },
  };
}
