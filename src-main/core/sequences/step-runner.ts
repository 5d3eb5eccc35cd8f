/**
 * One sequence run: its steps one after another, each one request to its controller
 * (a persistent on/off of the step's outlets), then its wait — a delay, or until the controller confirms
 * the outlets' physical state. The run stops at the first step that is refused, fails, or is not
 * confirmed in time, and says so in a sentence: never a success it did not see. Abort and stop (quit)
 * take effect between steps: a request on the wire is answered first; steps done stay done.
 */
import type { Actor, ContractError, SequenceRun, SequenceRunStep } from '../../../src-preload/model';
import type { Clock } from '../kernel/clock';
import type { EventHub } from '../kernel/event-hub';
import type { SessionManager } from '../session/sessions';
import { keptFailure, setOutlets } from '../actions/outlet-actions';
import { permitSwitch } from '../actions/switch-rules';
import type { Logger } from '../../shared/logging';
import { doneWords, stepWhat } from './sequence-words';

/** How long a step whose request got no answer (unconfirmed) waits for a poll to settle it. */
export const UNANSWERED_WAIT_S = 30;

/** What a run needs of the Core (not CoreContext itself, which holds the runs). */
export interface SequenceCtx {
  clock: Clock;
  log: Logger;
  events: EventHub;
  sessions: SessionManager;
}
type Ctx = SequenceCtx;

export interface RunControl {
  /** Who ran it (reservations are checked as them; the switches are the sequence's, on their behalf). */
  actor: Actor;
  /** The person confirmed switching critical outlets off when the run started. */
  confirmCritical: boolean;
  /** Set when Abort or a stop asks the run to end before its next step. */
  ending: 'aborted' | 'stopped' | null;
  /** Wakes a wait early (abort/stop). */
  wake: (() => void) | null;
}

class StepFailed extends Error {
  constructor(readonly error: ContractError) {
    super(error.message);
  }
}

export async function runSequence(
  ctx: Ctx,
  run: SequenceRun,
  control: RunControl,
  changed: () => void,
): Promise<void> {
  const on = run.action === 'on';
  const line = (step: number | null, kind: SequenceRun['timeline'][number]['kind'], text: string) => {
    run.timeline.push({ time: ctx.clock.now(), step, kind, text });
    changed();
  };
  try {
    for (let i = 0; i < run.steps.length; i++) {
      const step = run.steps[i]!;
      if (control.ending) return end(run, control.ending, ctx, changed);
      run.current = i + 1;
      step.status = 'switching';
      line(i + 1, 'started', `Step ${i + 1}: switching ${stepWhat(step)} ${run.action}.`);
      let unconfirmed: boolean;
      try {
        unconfirmed = await switchStep(ctx, step, on, control);
      } catch (error) {
        const doing = `switch step ${i + 1} of sequence '${run.name}' (${stepWhat(step)}) ${run.action}`;
        const failure = error instanceof StepFailed ? error.error : keptFailure(error, doing, ctx.log);
        return fail(run, i, step, failure, ctx, changed);
      }
      const last = i === run.steps.length - 1;
      if (step.wait.kind === 'confirmed' || unconfirmed) {
        const limit = step.wait.kind === 'confirmed' ? step.wait.timeoutSeconds : UNANSWERED_WAIT_S;
        step.status = 'confirming';
        run.waitingUntil = ctx.clock.now() + limit * 1000;
        line(
          i + 1,
          'waiting',
          `Waiting up to ${limit} s for ${stepWhat(step)} to be confirmed ${run.action}.`,
        );
        const outcome = await confirmation(ctx, step, on, limit * 1000, control);
        run.waitingUntil = null;
        if (outcome === 'timeout') {
          const error: ContractError = {
            code: 'TIMEOUT',
            message: `Not confirmed ${run.action} within ${limit} s.`,
            action: `Check the controller; the outlets of step ${i + 1} may or may not have switched.`,
          };
          return fail(run, i, step, error, ctx, changed);
        }
        if (outcome === 'woken') {
          step.status = 'failed';
          step.error = {
            code: 'CANCELLED',
            message: `Not confirmed ${run.action} before the sequence stopped.`,
          };
          return end(run, control.ending ?? 'aborted', ctx, changed);
        }
        step.status = 'done';
        line(i + 1, 'confirmed', `Step ${i + 1}: ${stepWhat(step)} confirmed ${run.action}.`);
      } else {
        step.status = 'done';
        line(i + 1, 'switched', `Step ${i + 1}: ${stepWhat(step)} switched ${run.action}.`);
      }
      if (step.wait.kind === 'delay' && step.wait.seconds > 0 && !last && !control.ending) {
        run.waitingUntil = ctx.clock.now() + step.wait.seconds * 1000;
        line(i + 1, 'waiting', `Waiting ${step.wait.seconds} s before step ${i + 2}.`);
        await delay(ctx, step.wait.seconds * 1000, control);
        run.waitingUntil = null;
      }
    }
    if (control.ending) return end(run, control.ending, ctx, changed);
    run.status = 'done';
    run.endedAt = ctx.clock.now();
    run.message = `Sequence '${run.name}' switched ${run.action}: all ${run.steps.length} steps done.`;
    line(null, 'done', run.message);
  } finally {
    run.waitingUntil = null;
  }
}

/** Switch one step; true when the request went unanswered (the outlets wait for a poll to settle them). */
async function switchStep(
  ctx: Ctx,
  step: SequenceRunStep,
  on: boolean,
  control: RunControl,
): Promise<boolean> {
  const session = await ctx.sessions.open(step.controllerId).catch(() => undefined);
  if (!session)
    throw new StepFailed({ code: 'NOT_FOUND', message: `${step.controllerName} is no longer saved.` });
  // The rules again for every step: a reservation can be taken, an outlet marked critical, mid-run.
  const part = { session, outlets: step.outlets, losing: on ? [] : step.outlets };
  const permit = await permitSwitch(control.actor, part, control.confirmCritical);
  const viaSequence: Actor = { door: 'sequence', who: control.actor.who };
  const result = await setOutlets(session, permit, step.outlets, on, false, viaSequence);
  const [first, ...rest] = result.failed;
  if (first) {
    throw new StepFailed({
      ...first.error,
      message: [first, ...rest].map((f) => f.error.message).join(' '),
    });
  }
  return (result.unconfirmed?.length ?? 0) > 0;
}

function fail(
  run: SequenceRun,
  index: number,
  step: SequenceRunStep,
  error: ContractError,
  ctx: Ctx,
  changed: () => void,
): void {
  step.status = 'failed';
  step.error = error;
  run.status = 'failed';
  run.endedAt = ctx.clock.now();
  run.message = `Sequence '${run.name}' stopped at step ${index + 1} of ${run.steps.length} (${stepWhat(step)}): ${error.message} ${capitalFirst(doneWords(run))}.`;
  run.timeline.push({ time: run.endedAt, step: index + 1, kind: 'failed', text: run.message });
  changed();
}

function end(run: SequenceRun, how: 'aborted' | 'stopped', ctx: Ctx, changed: () => void): void {
  run.status = how;
  run.endedAt = ctx.clock.now();
  const next = run.steps.find((s) => s.status === 'waiting');
  for (const s of run.steps) if (s.status === 'waiting') s.status = 'skipped';
  const what = how === 'aborted' ? 'was aborted' : 'was stopped because Plugboard quit';
  const rest = next ? ` before step ${run.steps.indexOf(next) + 1} of ${run.steps.length}` : '';
  run.message = `Sequence '${run.name}' ${what}${rest}: ${doneWords(run)}; steps done stay switched ${run.action}.`;
  run.timeline.push({
    time: run.endedAt,
    step: null,
    kind: how === 'aborted' ? 'aborted' : 'stopped',
    text: run.message,
  });
  changed();
}

function capitalFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Wait `ms` on the Core's clock; Abort or a stop wakes it early. */
function delay(ctx: Ctx, ms: number, control: RunControl): Promise<void> {
  return new Promise((resolve) => {
    const timer = ctx.clock.setTimeout(done, ms);
    function done() {
      ctx.clock.clearTimeout(timer);
      control.wake = null;
      resolve();
    }
    control.wake = done;
  });
}

/** Until the step's outlets show the physical state asked for (nothing pending), the limit, or a wake. */
function confirmation(
  ctx: Ctx,
  step: SequenceRunStep,
  on: boolean,
  ms: number,
  control: RunControl,
): Promise<'confirmed' | 'timeout' | 'woken'> {
  const confirmed = (): boolean => {
    const state = ctx.sessions.find(step.controllerId)?.state;
    return step.outlets.every((n) => {
      const o = state?.outlets.find((x) => x.number === n);
      return !!o && o.physicalState === on && !o.pending;
    });
  };
  if (confirmed()) return Promise.resolve('confirmed');
  return new Promise((resolve) => {
    const finish = (outcome: 'confirmed' | 'timeout' | 'woken') => {
      ctx.clock.clearTimeout(timer);
      stop();
      control.wake = null;
      resolve(outcome);
    };
    const timer = ctx.clock.setTimeout(() => finish(confirmed() ? 'confirmed' : 'timeout'), ms);
    const stop = ctx.events.subscribe((name, payload) => {
      if (name === 'state/changed' && (payload as { id: string }).id === step.controllerId && confirmed())
        finish('confirmed');
    });
    control.wake = () => finish('woken');
  });
}
