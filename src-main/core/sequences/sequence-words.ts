/** The sentences a sequence run says about itself (timeline lines and how it ended). */
import type { SequenceRun, SequenceRunStep } from '../../../src-preload/model';

/** "outlet 3" / "outlets 3, 4" of a step, on its controller. */
export function stepWhat(step: Pick<SequenceRunStep, 'controllerName' | 'outlets'>): string {
  const list = step.outlets.join(', ');
  return `${step.controllerName} ${step.outlets.length === 1 ? 'outlet' : 'outlets'} ${list}`;
}

/** "steps 1–3 done" / "step 1 done" / "no step done". */
export function doneWords(run: Pick<SequenceRun, 'steps'>): string {
  const done = run.steps.filter((s) => s.status === 'done').length;
  if (done === 0) return 'no step done';
  if (done === 1) return 'step 1 done';
  return `steps 1–${done} done`;
}

/** Local wall-clock time "10:42" of an epoch ms (what a person reads next to the log). */
export function clockWords(time: number): string {
  const d = new Date(time);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** "Sequence 'Rack 7 power-on' stopped at step 4 of 12 (killed at 10:42): steps 1–3 done." */
export function stoppedAt(run: Pick<SequenceRun, 'name' | 'steps' | 'current'>, why: string): string {
  const done = run.steps.filter((s) => s.status === 'done').length;
  const at = Math.min(done + 1, run.steps.length);
  return `Sequence '${run.name}' stopped at step ${at} of ${run.steps.length} (${why}): ${doneWords(run)}.`;
}

export function seconds(n: number): string {
  return `${n} s`;
}
