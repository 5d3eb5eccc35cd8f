/**
 * Running a group: within one controller a single request (a matrix write of the persistent state, or
 * one matrix cycle), across controllers all sent at once — every request leaves before any answer is
 * awaited. The switch rules (reservations, critical outlets: switch-rules.ts) hold for the whole group
 * first: refused whole, nothing half applied.
 */
import type { Actor } from '../../../src-preload/model';
import type { ContractError, GroupRunResult, OutletActionResult } from '../../../src-preload/model';
import { cycleOutlets, keptFailure, setOutlets } from '../actions/outlet-actions';
import { permitSwitches } from '../actions/switch-rules';
import type { Logger } from '../../shared/logging';
import type { ControllerRegistry } from '../saved/registry';
import type { SessionManager } from '../session/sessions';

/** What a group run reads of the Core (the Core's context passes itself). */
export interface GroupRunContext {
  log: Logger;
  registry: ControllerRegistry;
  sessions: SessionManager;
  /** Resolves once every saved controller has its session. */
  started: Promise<void>;
}

export async function runGroup(
  ctx: GroupRunContext,
  id: string,
  action: 'on' | 'off' | 'cycle',
  actor: Actor,
  confirmCritical: boolean,
): Promise<GroupRunResult> {
  const group = ctx.registry.getGroupOrThrow(id);
  await ctx.started;
  const byController = new Map<string, number[]>();
  for (const member of group.members) {
    const list = byController.get(member.controllerId) ?? [];
    list.push(member.outlet);
    byController.set(member.controllerId, list);
  }
  const parts = await Promise.all(
    [...byController].map(async ([controllerId, outlets]) => ({
      controllerId,
      outlets,
      session: await ctx.sessions.open(controllerId).catch(() => undefined),
    })),
  );
  const open = parts.flatMap(({ session, outlets }) =>
    session ? [{ session, outlets, losing: action === 'on' ? [] : outlets }] : [],
  );
  const permits = await permitSwitches(actor, open, confirmCritical);
  // The switches are the group's, on behalf of whoever ran it.
  const viaGroup: Actor = { door: 'group', who: actor.who };
  const runs = parts.map(async ({ controllerId, outlets, session }) => {
    if (!session) {
      const error: ContractError = {
        code: 'NOT_FOUND',
        message: `A controller of group "${group.name}" is no longer saved.`,
      };
      return { controllerId, outlets, error };
    }
    const permit = permits[open.findIndex((p) => p.session === session)]!;
    try {
      const result =
        action === 'cycle'
          ? await cycleOutlets(session, permit, outlets, viaGroup)
          : await setOutlets(session, permit, outlets, action === 'on', false, viaGroup);
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
