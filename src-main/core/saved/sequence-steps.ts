/**
 * A sequence's steps as saved with its group: checked against the saved controllers,
 * each outlet in one step only; the group's `members` are the steps' outlets in order, so reservations,
 * the tray and the CLI see a sequence as the group it is.
 */
import * as v from 'valibot';
import type { ControllerSummary, OutletRef, SequenceStep, SequenceWait } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';

export const MAX_STEPS = 256;
/** As registry-records.ts (not imported: that file reads saved steps through this one). */
const MAX_OUTLET_NUMBER = 64;
const MAX_WAIT_SECONDS = 3600;

const outlet = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_OUTLET_NUMBER));
const seconds = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_WAIT_SECONDS));

/** The stored form of a step (read back from the settings file). */
export const storedStepSchema = v.object({
  controllerId: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  outlets: v.pipe(v.array(outlet), v.minLength(1)),
  wait: v.variant('kind', [
    v.object({ kind: v.literal('delay'), seconds }),
    v.object({ kind: v.literal('confirmed'), timeoutSeconds: v.pipe(seconds, v.minValue(1)) }),
  ]),
});

function cleanWait(wait: SequenceWait): SequenceWait {
  return wait.kind === 'delay'
    ? { kind: 'delay', seconds: wait.seconds }
    : { kind: 'confirmed', timeoutSeconds: wait.timeoutSeconds };
}

/** Check the steps of sequence `name`; returns them cleaned and the members they add up to. */
export function validateSteps(
  name: string,
  steps: readonly SequenceStep[],
  controllers: readonly ControllerSummary[],
): { steps: SequenceStep[]; members: OutletRef[] } {
  if (!Array.isArray(steps) || steps.length === 0)
    throw new PlugboardError('BAD_INPUT', `Sequence "${name}" has no steps: add at least one.`);
  if (steps.length > MAX_STEPS)
    throw new PlugboardError('BAD_INPUT', `Sequence "${name}" has more than ${MAX_STEPS} steps.`);
  const seen = new Map<string, number>();
  const cleaned = steps.map((step, index) => {
    const parsed = v.safeParse(storedStepSchema, step);
    const controller = controllers.find((c) => c.id === step?.controllerId);
    if (!controller)
      throw new PlugboardError(
        'BAD_INPUT',
        `Step ${index + 1} of sequence "${name}" names a controller that is not saved.`,
        undefined,
        { action: 'Choose an outlet of a saved controller for that step.' },
      );
    if (!parsed.success)
      throw new PlugboardError(
        'BAD_INPUT',
        `Step ${index + 1} of sequence "${name}" is not valid: give it outlets of ${controller.name} (numbered from 1) and a wait of 0–${MAX_WAIT_SECONDS} seconds.`,
      );
    const outlets = [...new Set(parsed.output.outlets)];
    for (const number of outlets) {
      const key = `${controller.id}\u0000${number}`;
      const earlier = seen.get(key);
      if (earlier !== undefined)
        throw new PlugboardError(
          'BAD_INPUT',
          `Outlet ${number} of ${controller.name} is in step ${earlier + 1} and step ${index + 1} of sequence "${name}": an outlet may be in one step only.`,
        );
      seen.set(key, index);
    }
    return { controllerId: controller.id, outlets, wait: cleanWait(parsed.output.wait) };
  });
  const members = cleaned.flatMap((s) => s.outlets.map((o) => ({ controllerId: s.controllerId, outlet: o })));
  return { steps: cleaned, members };
}

/** Saved steps read back: unknown controllers' outlets dropped, then empty steps. */
export function readSteps(raw: unknown, controllerIds: ReadonlySet<string>): SequenceStep[] | null {
  if (!Array.isArray(raw)) return null;
  const steps: SequenceStep[] = [];
  for (const entry of raw) {
    const parsed = v.safeParse(storedStepSchema, entry);
    if (!parsed.success) return null;
    if (!controllerIds.has(parsed.output.controllerId)) continue;
    steps.push({
      controllerId: parsed.output.controllerId,
      outlets: [...new Set(parsed.output.outlets)],
      wait: cleanWait(parsed.output.wait),
    });
  }
  return steps.length ? steps : null;
}

/** The steps without a removed controller's outlets. */
export function stepsWithout(steps: readonly SequenceStep[], controllerId: string): SequenceStep[] {
  return steps.filter((s) => s.controllerId !== controllerId);
}
