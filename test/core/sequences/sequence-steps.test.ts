/**
 * Saving sequences (issue 16 item 10): steps checked against the saved controllers (an outlet in one step
 * only), kept in the settings file with their waits, made a plain group again by groups/save, and pruned
 * when a controller is removed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Group } from '../../../src-preload/contract';
import { createCore } from '../../../src-main/core/index';
import { cleanUp } from '../harness';
import { delay, lab } from '../sequence-lab';

afterEach(cleanUp);

describe('saving sequences', () => {
  it('refuses an outlet in two steps and an unknown controller, naming the step', async () => {
    const { h, ca } = await lab();
    const twice = await h.call('sequences/save', {
      name: 'Rack 7',
      steps: [
        { controllerId: ca.id, outlets: [1, 2], wait: delay(0) },
        { controllerId: ca.id, outlets: [2], wait: delay(0) },
      ],
    });
    expect(twice).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message:
          'Outlet 2 of Rack A is in step 1 and step 2 of sequence "Rack 7": an outlet may be in one step only.',
      },
    });
    const unknown = await h.call('sequences/save', {
      name: 'Rack 7',
      steps: [{ controllerId: 'c-gone', outlets: [1], wait: delay(0) }],
    });
    expect(unknown).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message: 'Step 1 of sequence "Rack 7" names a controller that is not saved.',
      },
    });
    const badWait = await h.call('sequences/save', {
      name: 'Rack 7',
      steps: [{ controllerId: ca.id, outlets: [1], wait: { kind: 'confirmed', timeoutSeconds: 0 } }],
    });
    expect(badWait).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/timeoutSeconds/) },
    });
    expect(await h.ok('groups/list', {})).toEqual([]);
  });

  it('keeps the steps in the settings file, becomes a plain group again, and loses a removed controller', async () => {
    const { h, ca, cb } = await lab();
    const saved = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: [
        { controllerId: cb.id, outlets: [2], wait: { kind: 'confirmed', timeoutSeconds: 20 } },
        { controllerId: ca.id, outlets: [1, 3], wait: delay(5) },
      ],
    });
    // Another Core reading the same store (as the CLI or a second app would) sees the same sequence.
    const other = createCore({ shell: 'test', version: '0', store: h.store, log: () => undefined });
    try {
      expect(await other.handlers['groups/list']({})).toEqual([saved]);
    } finally {
      await other.dispose();
    }
    await h.ok('controllers/remove', { id: cb.id });
    const [pruned] = await h.ok<Group[]>('groups/list', {});
    expect(pruned).toMatchObject({
      kind: 'sequence',
      steps: [{ controllerId: ca.id, outlets: [1, 3], wait: { kind: 'delay', seconds: 5 } }],
      members: [
        { controllerId: ca.id, outlet: 1 },
        { controllerId: ca.id, outlet: 3 },
      ],
    });
    const plain = await h.ok<Group>('groups/save', {
      id: saved.id,
      name: 'Rack 7',
      members: pruned!.members,
    });
    expect(plain).toEqual({ id: saved.id, name: 'Rack 7', members: pruned!.members });
  });
});
