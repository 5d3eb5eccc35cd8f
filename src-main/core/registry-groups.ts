import type { ControllerSummary, Group, OutletRef, SequenceStep } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import { groupNotFound } from './registry-input';
import { MAX_NAME_LENGTH, MAX_OUTLET_NUMBER, sameName, uniqueOutletRefs } from './registry-records';
import { stepsWithout, validateSteps } from './sequence-steps';

/** A group as the window or the CLI describes it: no id = create. */
export interface GroupInput {
  id?: string;
  name: string;
  members: readonly OutletRef[];
  /** Given: the group is a sequence of these steps, and `members` is ignored (it follows from them). */
  steps?: readonly SequenceStep[];
}

const MAX_MEMBERS = 256;

/** Check a group against the saved controllers and the other groups; returns it cleaned (trimmed, de-duplicated). */
export function validateGroupInput(
  input: GroupInput,
  controllers: readonly ControllerSummary[],
  groups: readonly Group[],
): { id: string | undefined; name: string; members: OutletRef[]; steps?: SequenceStep[] } {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw new PlugboardError('BAD_INPUT', 'The group name is empty: give the group a name.');
  if (name.length > MAX_NAME_LENGTH)
    throw new PlugboardError('BAD_INPUT', `The group name is longer than ${MAX_NAME_LENGTH} characters.`);
  if (input.id !== undefined && !groups.some((g) => g.id === input.id)) throw groupNotFound(input.id);
  const clash = groups.find((g) => g.id !== input.id && sameName(g.name, name));
  if (clash)
    throw new PlugboardError(
      'BAD_INPUT',
      `A group named "${clash.name}" already exists: choose another name.`,
    );
  if (input.steps !== undefined)
    return { id: input.id, name, ...validateSteps(name, input.steps, controllers) };
  if (!Array.isArray(input.members) || input.members.length === 0) {
    throw new PlugboardError('BAD_INPUT', `Group "${name}" has no outlets: add at least one.`);
  }
  if (input.members.length > MAX_MEMBERS)
    throw new PlugboardError('BAD_INPUT', `Group "${name}" has more than ${MAX_MEMBERS} outlets.`);
  for (const member of input.members) {
    const controller = controllers.find((c) => c.id === member.controllerId);
    if (!controller) {
      throw new PlugboardError(
        'BAD_INPUT',
        `Group "${name}" names controller ${JSON.stringify(member.controllerId).slice(0, 80)}, which is not saved.`,
      );
    }
    if (!Number.isInteger(member.outlet) || member.outlet < 1 || member.outlet > MAX_OUTLET_NUMBER) {
      throw new PlugboardError(
        'BAD_INPUT',
        `Group "${name}": ${String(member.outlet).slice(0, 20)} is not an outlet number of ${controller.name} (outlets are numbered from 1).`,
      );
    }
  }
  return { id: input.id, name, members: uniqueOutletRefs(input.members) };
}

/** The groups without a removed controller's outlets; groups left empty are dropped. */
export function withoutController(
  groups: readonly Group[],
  controllerId: string,
): { groups: Group[]; changed: boolean } {
  const kept = groups
    .map((g) => ({
      ...g,
      members: g.members.filter((m) => m.controllerId !== controllerId),
      ...(g.steps ? { steps: stepsWithout(g.steps, controllerId) } : {}),
    }))
    .filter((g) => g.members.length > 0);
  const changed =
    kept.length !== groups.length || kept.some((g, i) => g.members.length !== groups[i]!.members.length);
  return { groups: kept, changed };
}
