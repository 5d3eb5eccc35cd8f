/**
 * Caps on groups: their number, the outlets of one, and the outlets all of them name together. Every
 * reservation check reads and validates every group, so without them 6,797 groups held the service at
 * 77 % CPU.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ControllerSummary, Group } from '../../../src-preload/model';
import {
  MAX_GROUPS,
  MAX_OUTLETS_IN_GROUPS,
  validateGroupInput,
} from '../../../src-main/core/saved/registry-groups';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

const controller = (id: string): ControllerSummary =>
  ({
    id,
    name: `Bench ${id}`,
    url: 'http://127.0.0.1:1',
    auth: 'digest',
    user: 'admin',
  }) as ControllerSummary;

describe('group caps', () => {
  it('refuses the group after the thousandth, through the Core, with a sentence naming the limit', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu, { name: 'Bench A' });
    // Saved as the file would hold them after 1,000 creations (creating each through the Core is the same path).
    const groups: Group[] = Array.from({ length: MAX_GROUPS }, (_, i) => ({
      id: `g${i}`,
      name: `DUT ${i}`,
      members: [{ controllerId: id, outlet: (i % 8) + 1 }],
    }));
    h.store.set('groups', groups);
    const refused = await h.call('groups/save', {
      name: 'one more',
      members: [{ controllerId: id, outlet: 1 }],
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message:
          'Plugboard keeps at most 1000 groups and sequences, and 1000 are saved: remove one you no longer use before creating "one more".',
      },
    });
    // Editing one of them is still fine, and so is creating one once another is gone.
    await h.ok('groups/save', { id: 'g0', name: 'DUT 0', members: [{ controllerId: id, outlet: 2 }] });
    await h.ok('groups/remove', { id: 'g1' });
    await h.ok('groups/save', { name: 'one more', members: [{ controllerId: id, outlet: 1 }] });
  });

  it('refuses a group that takes the outlets all groups name past 20,000', () => {
    const controllers = ['a', 'b', 'c', 'd'].map(controller);
    const full = (i: number): Group => ({
      id: `g${i}`,
      name: `G ${i}`,
      members: controllers.flatMap((c) =>
        Array.from({ length: 64 }, (_, o) => ({ controllerId: c.id, outlet: o + 1 })),
      ),
    });
    const groups = Array.from({ length: Math.floor(MAX_OUTLETS_IN_GROUPS / 256) }, (_, i) => full(i));
    const named = groups.length * 256;
    const room = MAX_OUTLETS_IN_GROUPS - named;
    const members = (n: number) =>
      Array.from({ length: n }, (_, o) => ({ controllerId: 'a', outlet: o + 1 }));
    expect(
      validateGroupInput({ name: 'fits', members: members(room) }, controllers, groups).members,
    ).toHaveLength(room);
    expect(() =>
      validateGroupInput({ name: 'too many', members: members(room + 1) }, controllers, groups),
    ).toThrow(
      `Groups and sequences may name at most 20000 outlets together; with "too many" they would name ${MAX_OUTLETS_IN_GROUPS + 1}: remove outlets from groups you no longer need.`,
    );
    // Replacing a group counts its new outlets instead of its old ones.
    expect(
      validateGroupInput({ id: 'g0', name: 'G 0', members: members(64) }, controllers, groups).members,
    ).toHaveLength(64);
  });
});
