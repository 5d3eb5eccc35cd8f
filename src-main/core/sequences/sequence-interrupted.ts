/**
 * A run whose process can no longer finish it: killed on this machine (its process is gone), or left
 * "running" by a service that no longer leads the lab (a failover). Either way it is marked where it
 * stopped and never continued: a step under way may or may not have switched, the steps after it did not.
 */
import type { SequenceRun } from '../../../src-preload/model';
import { clockWords, stoppedAt } from './sequence-words';

/** Mark `run` as ended at `at` with status `status`, saying `why` ("killed at 10:42"). */
export function markInterrupted(
  run: SequenceRun,
  status: 'killed' | 'stopped',
  at: number,
  why: string,
): SequenceRun {
  run.status = status;
  run.endedAt = at;
  run.waitingUntil = null;
  for (const step of run.steps) {
    if (step.status === 'switching' || step.status === 'confirming') {
      step.status = 'failed';
      step.error = {
        code: 'CANCELLED',
        message: 'Plugboard stopped during this step: its outlets may or may not have switched.',
      };
    }
    if (step.status === 'waiting') step.status = 'skipped';
  }
  run.message = stoppedAt(run, why);
  run.timeline.push({ time: at, step: null, kind: 'stopped', text: run.message });
  return run;
}

/** Why a run left by a service that no longer leads stopped: who took over, and when. */
export function takenOverWords(
  self: string,
  at: number,
  lastProgress: number,
  host: string | undefined,
): string {
  const where = host ? ` on ${host}` : '';
  return `stopped by ${self} (failover) at ${clockWords(at)}: the service running it${where} no longer leads the lab, last progress at ${clockWords(lastProgress)}; not replayed`;
}
