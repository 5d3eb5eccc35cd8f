/**
 * What a process that stopped without finishing left behind, found and reported, never replayed:
 * - sequence runs left "running": marked where they stopped (sequences/sequence-interrupted.ts), with who
 *   stopped them and when, and an activity entry each; the steps not done are not switched;
 * - outlets a delayed cycle switched off and promised to switch back on (actions/promised-switches.ts):
 *   reported as left off by an interrupted cycle, naming who asked and when, in the activity log and as
 *   a notification; NOT switched on, since nobody asks for it now and the lab may have moved on (someone
 *   may be working on the board, another cycle may have started). Whoever reads the report decides.
 *
 * Which work is interrupted: at the start of a Core that does not share the lab with another service
 * (the desktop app, a service on SQLite), what a process of this machine that is gone left; when a
 * service begins to lead the lab (`takingOver`), everything any other process left: a service on another
 * machine cannot be asked whether it still runs, but it no longer leads, so it switches nothing more.
 * A report leaves the store only once its activity entry is written: a Core killed while reporting
 * reports again.
 */
import { hostname } from 'node:os';
import type { ActivityEntry, Actor, SequenceRun } from '../../../src-preload/model';
import { SYSTEM_ACTOR } from '../activity/activity-log';
import type { PromisedSwitch } from '../actions/promised-switches';
import { processAlive } from '../sequences/sequence-file';
import { clockWords } from '../sequences/sequence-words';
import type { Notice } from '../session/notifications';
import type { CoreContext } from './core-context';

export interface Interrupted {
  /** Sequence runs marked where they stopped. */
  runs: SequenceRun[];
  /** Outlets left off by an interrupted delayed cycle (reported, not switched on). */
  leftOff: PromisedSwitch[];
}

/** This service begins to lead the lab, under the name `self`. */
export interface TakingOver {
  self: string;
}

/** The words of a left-off outlet's report. */
export function leftOffWords(promise: PromisedSwitch, by: string): string {
  const outlet = `${promise.controller_name} outlet ${promise.outlet}${promise.outlet_name ? ` (${promise.outlet_name})` : ''}`;
  return `${outlet} was left off by an interrupted cycle: ${promise.who} (${promise.door}) asked at ${clockWords(promise.asked_at)} for "${promise.what}", and the process doing it stopped before switching it back on (due at ${clockWords(promise.due_at)}). ${by} did not switch it on: switch it on if it should be.`;
}

/**
 * Find and report what was interrupted (see above); `takingOver` null: at a Core's start without a lab
 * leadership. Called by the Core at start (no leadership), and by the leadership when this service
 * begins to lead, before it polls or accepts a change.
 */
export async function recoverInterrupted(
  ctx: CoreContext,
  takingOver: TakingOver | null,
  notify: (notice: Notice) => void,
): Promise<Interrupted> {
  const actor: Actor = takingOver ? { door: 'system', who: `${takingOver.self} (failover)` } : SYSTEM_ACTOR;
  const entries: ActivityEntry[] = [];
  // Said in the log once the entries are written: a reader of the log finds them in the store.
  const said: string[] = [];
  const runs = await ctx.sequences.interrupted(takingOver);
  for (const run of runs) {
    const at =
      run.steps.find((step) => step.status === 'failed' || step.status === 'skipped') ?? run.steps[0];
    if (!at) continue;
    entries.push(
      ctx.activity.add({
        controllerId: at.controllerId,
        controllerName: at.controllerName,
        outlet: null,
        action: `sequence '${run.name}' interrupted`,
        actor,
        result: 'error',
        error: { code: 'CANCELLED', message: run.message ?? `Sequence '${run.name}' was interrupted.` },
      }),
    );
    said.push(run.message ?? `sequence ${run.name} was interrupted`);
  }
  const host = hostname();
  const leftOff = (await ctx.promises.standing()).filter((promise) =>
    takingOver
      ? promise.host !== host || promise.pid !== process.pid
      : promise.host === host && !processAlive(promise.pid),
  );
  for (const promise of leftOff) {
    const sentence = leftOffWords(promise, takingOver?.self ?? 'Plugboard');
    entries.push(
      ctx.activity.add({
        controllerId: promise.controller_id,
        controllerName: promise.controller_name,
        outlet: promise.outlet,
        ...(promise.outlet_name ? { outletName: promise.outlet_name } : {}),
        action: 'left off by an interrupted cycle',
        actor,
        result: 'error',
        error: { code: 'CANCELLED', message: sentence },
      }),
    );
    said.push(sentence);
    notify({ title: `${promise.controller_name} outlet ${promise.outlet} left off`, body: sentence });
  }
  const written = await ctx.activity.committed(entries);
  if (written) await ctx.promises.forget(leftOff.map((p) => p.id));
  else if (leftOff.length > 0)
    ctx.log('the reports of outlets left off are not written yet: the next start reports them again');
  for (const sentence of said) ctx.log(sentence);
  return { runs, leftOff };
}
