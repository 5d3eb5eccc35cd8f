/** The contract's outlet calls: switch, cycle, rename and configure outlets on one controller. */
import type { Actor } from '../../../src-preload/model';
import type { Handlers } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import { outletLabel } from '../../../src-preload/words';
import { startedSession, type CoreContext } from '../flows/core-context';
import { cycleWithDelay } from '../actions/cycle-delayed';
import {
  configureOutlet,
  cycleOutlets,
  renameOutlet,
  setOutlets,
  switchOutlets,
} from '../actions/outlet-actions';
import type { ControllerSession } from '../session/session';

type OutletHandlers = Pick<
  Handlers,
  'outlets/set' | 'outlets/cycle' | 'outlets/switch' | 'outlets/rename' | 'outlets/configure'
>;

/**
 * Reservations are checked first (outlet-actions.ts checks again, for paths that reach it directly), so
 * the tray never asks the window to confirm a switch that someone else's reservation refuses.
 *
 * The tray never switches a critical outlet off (or cycles it) by itself: it asks the window to confirm
 * (`ui/confirm`) and the call ends CANCELLED; the window then sends the confirmed call.
 */
function guardCritical(
  ctx: CoreContext,
  session: ControllerSession,
  actor: Actor,
  outlets: 'all' | readonly number[],
  action: 'off' | 'cycle',
): void {
  if (actor.door !== 'tray') return;
  const critical = session.state.outlets.filter(
    (o) => o.critical && (outlets === 'all' || outlets.includes(o.number)),
  );
  if (critical.length === 0) return;
  const names = critical.map((o) => outletLabel(o.number, o.name)).join(', ');
  ctx.confirm({
    controllerId: session.summary.id,
    outlets: critical.map((o) => o.number),
    action,
    reason: `${names} on ${session.summary.name} ${critical.length > 1 ? 'are' : 'is'} marked critical.`,
  });
  throw new PlugboardError(
    'CANCELLED',
    `${names} on ${session.summary.name} ${critical.length > 1 ? 'are' : 'is'} critical: confirm it in the Plugboard window.`,
  );
}

export function outletHandlers(ctx: CoreContext, actor: Actor): OutletHandlers {
  const session = (id: string) => startedSession(ctx, id);
  return {
    'outlets/set': async ({ controllerId, outlets, on, transient }) => {
      const s = await session(controllerId);
      s.assertMayAct(actor, outlets);
      if (!on) guardCritical(ctx, s, actor, outlets, 'off');
      return setOutlets(s, outlets, on, transient ?? false, actor);
    },
    'outlets/cycle': async ({ controllerId, outlet, delay }) => {
      const s = await session(controllerId);
      s.assertMayAct(actor, [outlet]);
      guardCritical(ctx, s, actor, [outlet], 'cycle');
      if (delay !== undefined)
        return cycleWithDelay(s, outlet, delay, actor, ctx.operations, ctx.requestTimeoutMs);
      return cycleOutlets(s, [outlet], actor);
    },
    'outlets/switch': async ({ controllerId, changes, transient }) => {
      const s = await session(controllerId);
      s.assertMayAct(
        actor,
        changes.map((c) => c.outlet),
      );
      guardCritical(
        ctx,
        s,
        actor,
        changes.filter((c) => !c.on).map((c) => c.outlet),
        'off',
      );
      return switchOutlets(s, changes, transient ?? true, actor);
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
