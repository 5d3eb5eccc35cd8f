/**
 * Sequences: a group switched step by step, with a live timeline and Abort.
 */
import * as v from 'valibot';
import type { Group, SequenceRun } from '../model';
import {
  call,
  id,
  controllerId,
  outletNumber,
  cycleDelaySeconds,
  name,
  empty,
  confirmCritical,
} from './blocks';

/** One step of a sequence: one or several outlets of one controller, then a wait. */
const sequenceStep = v.strictObject({
  controllerId,
  outlets: v.pipe(v.array(outletNumber), v.minLength(1, 'give each step an outlet'), v.maxLength(64)),
  wait: v.variant('kind', [
    v.strictObject({
      kind: v.literal('delay'),
      seconds: v.pipe(
        v.number('must be a number of seconds'),
        v.integer('must be whole seconds'),
        v.minValue(0, 'must not be negative'),
        v.maxValue(3600, 'must be at most 3600 seconds (an hour)'),
      ),
    }),
    v.strictObject({ kind: v.literal('confirmed'), timeoutSeconds: cycleDelaySeconds }),
  ]),
});

export const sequenceCalls = {
  /** Create (no id) or replace a group as a sequence: ordered steps (`groups/save` makes it a plain group again). */
  'sequences/save': call(
    v.strictObject({
      id: v.optional(id),
      name,
      steps: v.pipe(v.array(sequenceStep), v.minLength(1, 'add at least one step'), v.maxLength(256)),
    }),
  ).returns<Group>(),
  /**
   * Start a sequence: its steps in order for on, in reverse for off. Refused whole (nothing switched) when
   * someone else reserved any step's outlets, or, for off, when a step has a critical outlet and
   * `confirmCritical` is not true. Progress comes as `sequence/progress`. Same as `groups/run` on a sequence.
   */
  'sequences/run': call(v.strictObject({ id, action: v.picklist(['on', 'off']), confirmCritical })).returns<{
    runId: string;
  }>(),
  /** Stop a run before its next step (steps done stay done); answers with the run as it ended. */
  'sequences/abort': call(v.strictObject({ runId: id })).returns<SequenceRun>(),
  /** Runs going on, and runs that stopped short (aborted, failed, stopped at quit or killed) not yet dismissed. */
  'sequences/runs': call(empty).returns<SequenceRun[]>(),
  /** Forget an ended run (the window showed where it stopped). */
  'sequences/dismiss': call(v.strictObject({ runId: id })).returns<null>(),
} as const;
