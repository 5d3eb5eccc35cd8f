/**
 * Running a group: within one controller a single request (a matrix write of the persistent state, or
 * one matrix cycle), across controllers all sent at once — every request leaves before any answer is
 * awaited.
 *
 * Critical outlets: the window asks the person before it calls `groups/run` with off or cycle, so the
 * Core runs what the window sends. The tray never offers off/cycle for a group with a critical outlet,
 * and should a tray call arrive anyway, the Core refuses it rather than switch a critical outlet off
 * without a confirmation.
 */
import type { Actor } from '../../../src-preload/model';
import type { ContractError, GroupRunResult, OutletActionResult } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { cycleOutlets, keptFailure, setOutlets } from '../actions/outlet-actions';
import type { Logger } from '../../shared/logging';
import type { Reservations } from '../reservations/reservations';
import type { ControllerRegistry } from '../saved/registry';
import type { SessionManager } from '../session/sessions';

/** What a group run reads of the Core (the Core's context passes itself). */
export interface GroupRunContext {
  log: Logger;
  registry: ControllerRegistry;
  reservations: Reservations;
  sessions: SessionManager;
  /** Resolves once every saved controller has its session. */
  started: Promise<void>;
}

export async function runGroup(
  ctx: GroupRunContext,
  id: string,
  action: 'on' | 'off' | 'cycle',
  actor: Actor,
): Promise<GroupRunResult> {
  const group = ctx.registry.getGroupOrThrow(id);
  await ctx.started;
  const byController = new Map<string, number[]>();
  for (const member of group.members) {
    const list = byController.get(member.controllerId) ?? [];
    list.push(member.outlet);
    byController.set(member.controllerId, list);
  }
  if (actor.door === 'tray' && action !== 'on') {
    const critical = group.members.some(
      (m) => ctx.sessions.find(m.controllerId)?.state.outlets.find((o) => o.number === m.outlet)?.critical,
    );
    if (critical) {
      throw new PlugboardError(
        'BAD_INPUT',
        `Group "${group.name}" has critical outlets: switch it ${action === 'off' ? 'off' : 'through a cycle'} from the Plugboard window, which asks first.`,
      );
    }
  }
  // Nothing half-applied: refused whole when someone else reserved any member (before any request goes).
  for (const [controllerId, outlets] of byController)
    ctx.reservations.assertMayAct(actor, controllerId, outlets);
  // The switches are the group's, on behalf of whoever ran it.
  const viaGroup: Actor = { door: 'group', who: actor.who };
  const runs = [...byController].map(async ([controllerId, outlets]) => {
    const session = await ctx.sessions.open(controllerId).catch(() => undefined);
    if (!session) {
      const error: ContractError = {
        code: 'NOT_FOUND',
        message: `A controller of group "${group.name}" is no longer saved.`,
      };
      return { controllerId, outlets, error };
    }
    try {
      const result =
        action === 'cycle'
          ? await cycleOutlets(session, outlets, viaGroup)
          : await setOutlets(session, outlets, action === 'on', false, viaGroup);
      return { controllerId, outlets, error: combined(result) };
    } catch (error) {
      const doing = `${action === 'cycle' ? 'cycle' : `switch ${action}`} group "${group.name}" at ${session.summary.name}`;
      return { controllerId, outlets, error: keptFailure(error, doing, ctx.log) };
    }
  });
  return { results: await Promise.all(runs) };
}

/** One error for a controller's part: null when every outlet did it, else what refused, in words. */
function combined(result: OutletActionResult): ContractError | null {
  const [first, ...rest] = result.failed;
  if (!first) return null;
  if (rest.length === 0) return first.error;
  const actions = [...new Set(result.failed.flatMap((f) => (f.error.action ? [f.error.action] : [])))];
  return {
    code: first.error.code,
    message: result.failed.map((f) => f.error.message).join(' '),
    ...(actions.length ? { action: actions.join(' ') } : {}),
    detail: { outlets: result.failed.map((f) => f.outlet).join(',') },
  };
}
