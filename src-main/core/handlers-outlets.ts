/** The contract's outlet, script, user, system and meter calls, on one controller each. */
import type { Handlers } from '../../src-preload/contract';
import { PlugboardError } from '../shared/errors';
import { outletLabel } from '../../src-preload/words';
import { createUser, deleteUser, readTree, reboot, setSsh, startScript, stopScripts } from './admin-actions';
import type { CoreContext } from './core-context';
import { meterCsv, meterCsvFilename } from './meter-csv';
import { cycleOutlets, renameOutlet, setOutlets, switchOutlets, type Source } from './outlet-actions';
import type { ControllerSession } from './session';

type OutletHandlers = Pick<
  Handlers,
  | 'outlets/set'
  | 'outlets/cycle'
  | 'outlets/switch'
  | 'outlets/rename'
  | 'scripts/start'
  | 'scripts/stop'
  | 'users/create'
  | 'users/delete'
  | 'system/setSsh'
  | 'system/reboot'
  | 'system/tree'
  | 'meters/history'
  | 'meters/exportCsv'
>;

/**
 * The tray never switches a critical outlet off (or cycles it) by itself: it asks the window to confirm
 * (`ui/confirm`) and the call ends CANCELLED; the window then sends the confirmed call.
 */
function guardCritical(
  ctx: CoreContext,
  session: ControllerSession,
  source: Source,
  outlets: 'all' | readonly number[],
  action: 'off' | 'cycle',
): void {
  if (source !== 'tray') return;
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

export function outletHandlers(ctx: CoreContext, source: Source): OutletHandlers {
  const session = async (id: string) => {
    await ctx.started;
    return ctx.sessions.get(id);
  };
  return {
    'outlets/set': async ({ controllerId, outlets, on, transient }) => {
      const s = await session(controllerId);
      if (!on) guardCritical(ctx, s, source, outlets, 'off');
      return setOutlets(s, outlets, on, transient ?? false, source);
    },
    'outlets/cycle': async ({ controllerId, outlet }) => {
      const s = await session(controllerId);
      guardCritical(ctx, s, source, [outlet], 'cycle');
      return cycleOutlets(s, [outlet], source);
    },
    'outlets/switch': async ({ controllerId, changes }) => {
      const s = await session(controllerId);
      guardCritical(
        ctx,
        s,
        source,
        changes.filter((c) => !c.on).map((c) => c.outlet),
        'off',
      );
      return switchOutlets(s, changes, source);
    },
    'outlets/rename': async ({ controllerId, outlet, name }) => {
      await renameOutlet(await session(controllerId), outlet, name, source);
      return null;
    },
    'scripts/start': async ({ controllerId, function: name, args }) =>
      startScript(await session(controllerId), name, args, source),
    'scripts/stop': async ({ controllerId, threads }) => {
      await stopScripts(await session(controllerId), threads, source);
      return null;
    },
    'users/create': async ({ controllerId, ...user }) => {
      await createUser(await session(controllerId), user, source);
      return null;
    },
    'users/delete': async ({ controllerId, name }) => {
      await deleteUser(await session(controllerId), name, source);
      return null;
    },
    'system/setSsh': async ({ controllerId, enabled }) => {
      await setSsh(await session(controllerId), enabled, source);
      return null;
    },
    'system/reboot': async ({ controllerId }) => {
      await reboot(await session(controllerId), source);
      return null;
    },
    'system/tree': async ({ controllerId, path, depth }) =>
      readTree(await session(controllerId), path, depth),
    'meters/history': async ({ controllerId, key }) => {
      const s = await session(controllerId);
      const history = s.history.history(key);
      if (!history) {
        throw new PlugboardError(
          'NOT_FOUND',
          s.history.keys().length
            ? `${s.summary.name} has no meter "${key.slice(0, 80)}"; its meters are ${s.history.keys().join(', ')}.`
            : `${s.summary.name} has no meter history: it has no meters, or none were read yet.`,
        );
      }
      return history;
    },
    'meters/exportCsv': async ({ controllerId }) => {
      const s = await session(controllerId);
      if (s.history.keys().length === 0) {
        throw new PlugboardError(
          'NOT_FOUND',
          `${s.summary.name} has no meter history to export: it has no meters, or none were read yet.`,
        );
      }
      return { filename: meterCsvFilename(s.summary.name, ctx.clock.now()), csv: meterCsv(s.history) };
    },
  };
}
