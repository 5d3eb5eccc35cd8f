/**
 * A failure of Plugboard's own (a bug, not a controller's refusal) reaches people as "an internal error;
 * the details are in its log": a group run and a sequence run keep such a failure in their result
 * instead of throwing it to the dispatcher, so they log it themselves, with its stack.
 */
import { afterEach, expect, it, vi } from 'vitest';
import type { Group, GroupRunResult } from '../../../src-preload/contract';
import { OutletsApi } from '../../../src-main/dli/api-outlets';
import { cleanUp } from '../harness';
import { ended, lab } from '../sequence-lab';

afterEach(async () => {
  vi.restoreAllMocks();
  await cleanUp();
});

/** The client failing as a bug would: not a PlugboardError, with a stack of its own. */
function aBug(): TypeError {
  const bug = new TypeError("Cannot read properties of undefined (reading 'state')");
  vi.spyOn(OutletsApi.prototype, 'setState').mockRejectedValue(bug);
  return bug;
}

it('a group run logs the cause of an internal error it reports, with its stack', async () => {
  const { h, ca, cb } = await lab();
  const group = await h.ok<Group>('groups/save', {
    name: 'Rack 7',
    members: [
      { controllerId: ca.id, outlet: 1 },
      { controllerId: cb.id, outlet: 2 },
    ],
  });
  const bug = aBug();
  const { results } = await h.ok<GroupRunResult>('groups/run', { id: group.id, action: 'on' });
  expect(results.map((r) => r.error)).toEqual([
    expect.objectContaining({
      code: 'INTERNAL',
      message: expect.stringMatching(/details are in (its|the) log/),
    }),
    expect.objectContaining({
      code: 'INTERNAL',
      message: expect.stringMatching(/details are in (its|the) log/),
    }),
  ]);
  const logged = h.causes.filter((c) => c.error === bug);
  expect(logged.map((c) => c.message)).toEqual([
    'internal error while trying to switch on group "Rack 7" at Rack A',
    'internal error while trying to switch on group "Rack 7" at Rack B',
  ]);
  expect((logged[0]!.error as Error).stack).toContain('TypeError');
});

it('a sequence run logs the cause of an internal error it stopped at, with its stack', async () => {
  const { h, ca, cb } = await lab();
  const group = await h.ok<Group>('sequences/save', {
    name: 'Rack 7 power-on',
    steps: [
      { controllerId: ca.id, outlets: [1], wait: { kind: 'delay', seconds: 0 } },
      { controllerId: cb.id, outlets: [2], wait: { kind: 'delay', seconds: 0 } },
    ],
  });
  const bug = aBug();
  const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
  const run = await ended(h, runId);
  expect(run.status).toBe('failed');
  expect(run.steps[0]!.error).toMatchObject({
    code: 'INTERNAL',
    message: expect.stringMatching(/details are in (its|the) log/) as string,
  });
  const logged = h.causes.filter((c) => c.error === bug);
  expect(logged.map((c) => c.message)).toEqual([
    "internal error while trying to switch step 1 of sequence 'Rack 7 power-on' (Rack A outlet 1) on",
  ]);
  expect((logged[0]!.error as Error).stack).toContain('TypeError');
});
