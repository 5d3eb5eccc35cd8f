import type { ControllerSummary, Group, OutletRef, SequenceStep } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { checkPrintable, groupNotFound } from './registry-input';
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

/**
 * Caps on what groups may hold. Every reservation check and every group run reads and validates all
 * groups from the shared settings file, so their number bounds the work of every switch: 6,797 groups
 * held the service at 77 % CPU. A lab of 200 controllers has 1,600 outlets; a group per controller, rack,
 * bench and device under test is a few hundred, so 1,000 groups (sequences included) leaves room for
 * five per controller. 256 outlets per group (and 256 steps per sequence) fit one outlet of every
 * controller; 20,000 outlets named by all groups together is every outlet of that lab twelve times over,
 * and keeps the settings file under a megabyte.
 */
export const MAX_GROUPS = 1_000;
export const MAX_OUTLETS_IN_GROUPS = 20_000;

/** Refuse a new group beyond MAX_GROUPS, or one that takes the outlets all groups name past their cap. */
function checkCaps(name: string, id: string | undefined, members: number, groups: readonly Group[]): void {
  if (id === undefined && groups.length >= MAX_GROUPS)
    throw new PlugboardError(
      'BAD_INPUT',
      `Plugboard keeps at most ${MAX_GROUPS} groups and sequences, and ${groups.length} are saved: remove one you no longer use before creating "${name}".`,
    );
  const others = groups.reduce((sum, g) => (g.id === id ? sum : sum + g.members.length), 0);
  if (others + members > MAX_OUTLETS_IN_GROUPS)
    throw new PlugboardError(
      'BAD_INPUT',
      `Groups and sequences may name at most ${MAX_OUTLETS_IN_GROUPS} outlets together; with "${name}" they would name ${others + members}: remove outlets from groups you no longer need.`,
    );
}

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
  checkPrintable(name, 'group name');
  if (input.id !== undefined && !groups.some((g) => g.id === input.id)) throw groupNotFound(input.id);
  const clash = groups.find((g) => g.id !== input.id && sameName(g.name, name));
  if (clash)
    throw new PlugboardError(
      'BAD_INPUT',
      `A group named "${clash.name}" already exists: choose another name.`,
    );
  if (input.steps !== undefined) {
    const sequence = validateSteps(name, input.steps, controllers);
    checkCaps(name, input.id, sequence.members.length, groups);
    return { id: input.id, name, ...sequence };
  }
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
  const members = uniqueOutletRefs(input.members);
  checkCaps(name, input.id, members.length, groups);
  return { id: input.id, name, members };
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
