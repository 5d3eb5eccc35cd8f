/**
 * Sequences (issue 16 item 10): a group switched step by step across controllers, each step waiting a
 * delay (on the Core's fake clock) or for the controller to confirm; reverse order for off; Abort; critical
 * outlets and reservations; a stop at quit and a killed run seen by the next start. Real emulators.
 * @real-unit
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group, SequenceRun } from '../../../src-preload/contract';
import { FakeClock } from '../fake-clock';
import { cleanUp } from '../harness';
import { delay, ended, lab, latest, LOADED, planned, states, steps } from '../sequence-lab';

afterEach(cleanUp);

describe('sequences', () => {
  it('switches step by step in order, waiting each delay on the clock, logged as the sequence for its runner', async () => {
    const clock = new FakeClock();
    const { a, b, h, ca, cb } = await lab({ clock });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7 power-on',
      steps: steps(ca, cb, [delay(5), delay(10), delay(0)]),
    });
    expect(group).toMatchObject({
      kind: 'sequence',
      members: [
        { controllerId: ca.id, outlet: 1 },
        { controllerId: cb.id, outlet: 2 },
        { controllerId: ca.id, outlet: 3 },
        { controllerId: ca.id, outlet: 4 },
      ],
    });
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    await vi.waitFor(() => expect(a.device.outlet(0).state).toBe(true), LOADED);
    await planned(clock, 5_000);
    expect(latest(h, runId)?.waitingUntil).toBe(clock.now() + 5_000);
    await clock.advance(4_999);
    expect(b.device.outlet(1).state).toBe(false);
    await clock.advance(1);
    await vi.waitFor(() => expect(b.device.outlet(1).state).toBe(true), LOADED);
    await planned(clock, 10_000);
    expect(states(a, [3, 4])).toEqual([false, false]);
    await clock.advance(10_000);
    const run = await ended(h, runId);
    expect(run.status).toBe('done');
    expect(run.message).toBe("Sequence 'Rack 7 power-on' switched on: all 3 steps done.");
    expect(states(a, [1, 2, 3, 4])).toEqual([true, false, true, true]);
    expect(run.timeline.map((t) => t.text)).toEqual([
      'Step 1: switching Rack A outlet 1 on.',
      'Step 1: Rack A outlet 1 switched on.',
      'Waiting 5 s before step 2.',
      'Step 2: switching Rack B outlet 2 on.',
      'Step 2: Rack B outlet 2 switched on.',
      'Waiting 10 s before step 3.',
      'Step 3: switching Rack A outlets 3, 4 on.',
      'Step 3: Rack A outlets 3, 4 switched on.',
      run.message,
    ]);
    const logged = h.activity().filter((e) => e.source === 'sequence');
    expect(logged.map((e) => [e.controllerName, e.outlet, e.action, e.who])).toEqual([
      ['Rack A', 1, 'on', 'alice'],
      ['Rack B', 2, 'on', 'alice'],
      ['Rack A', 3, 'on', 'alice'],
      ['Rack A', 4, 'on', 'alice'],
    ]);
  });

  it('switches off in reverse order, and groups/run on a sequence answers with its run id', async () => {
    const { a, b, h, ca, cb } = await lab();
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(0), delay(0), delay(0)]),
    });
    const on = await h.ok<{ runId: string; results: unknown[] }>('groups/run', {
      id: group.id,
      action: 'on',
    });
    expect(on.results).toEqual([]);
    expect((await ended(h, on.runId!)).status).toBe('done');
    a.device.stats.reset();
    b.device.stats.reset();
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'off' });
    const run = await ended(h, runId);
    expect(run.status).toBe('done');
    expect(run.steps.map((s) => [s.controllerName, s.outlets])).toEqual([
      ['Rack A', [3, 4]],
      ['Rack B', [2]],
      ['Rack A', [1]],
    ]);
    // The requests went out in that order: A's 3 and 4, then B's 2, then A's 1.
    const puts = [...a.device.stats.log, ...b.device.stats.log]
      .filter((e) => e.method === 'PUT')
      .sort((x, y) => x.time - y.time)
      .map((e) => e.path);
    expect(puts).toEqual([
      '/restapi/relay/outlets/=2,3/state/',
      '/restapi/relay/outlets/1/state/',
      '/restapi/relay/outlets/0/state/',
    ]);
    expect(states(a, [1, 3, 4])).toEqual([false, false, false]);
  });

  it('aborts during a delay: no further step, steps done stay done, and it says what was done', async () => {
    const clock = new FakeClock();
    const { a, b, h, ca, cb } = await lab({ clock });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(60), delay(0), delay(0)]),
    });
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    await planned(clock, 60_000);
    const run = await h.ok<SequenceRun>('sequences/abort', { runId });
    expect(run.status).toBe('aborted');
    expect(run.message).toBe(
      "Sequence 'Rack 7' was aborted before step 2 of 3: step 1 done; steps done stay switched on.",
    );
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'skipped', 'skipped']);
    await clock.advance(120_000);
    expect(a.device.outlet(0).state).toBe(true);
    expect(b.device.outlet(1).state).toBe(false);
    expect(states(a, [3, 4])).toEqual([false, false]);
    expect(await h.ok<SequenceRun[]>('sequences/runs', {})).toMatchObject([{ runId, status: 'aborted' }]);
  });

  it('waits until the controller confirms a step on, and stops with a sentence when it does not in time', async () => {
    const clock = new FakeClock();
    // Outlets switched on together come on one after another, 60 s (real time) apart: the second
    // outlet of step 1 is not confirmed within the 30 s the step allows.
    const { a, b, h, ca, cb } = await lab({ clock, sequenceDelay: 60 });
    const confirmed = { kind: 'confirmed', timeoutSeconds: 30 } as const;
    const ok = await h.ok<Group>('sequences/save', {
      name: 'One by one',
      steps: [
        { controllerId: ca.id, outlets: [5], wait: confirmed },
        { controllerId: cb.id, outlets: [5], wait: delay(0) },
      ],
    });
    const first = await h.ok<{ runId: string }>('sequences/run', { id: ok.id, action: 'on' });
    await planned(clock, 30_000);
    // Polls (on the fake clock) read the relay on: confirmed, then step 2 goes.
    await vi.waitFor(async () => {
      await clock.advance(250);
      expect(latest(h, first.runId)?.status).toBe('done');
    }, LOADED);
    const done = latest(h, first.runId)!;
    expect(done.timeline.map((t) => t.kind)).toEqual([
      'started',
      'waiting',
      'confirmed',
      'started',
      'switched',
      'done',
    ]);
    expect(b.device.outlet(4).state).toBe(true);

    const slow = await h.ok<Group>('sequences/save', {
      name: 'Slow',
      steps: [
        { controllerId: ca.id, outlets: [6, 7], wait: confirmed },
        { controllerId: cb.id, outlets: [6], wait: delay(0) },
      ],
    });
    const second = await h.ok<{ runId: string }>('sequences/run', { id: slow.id, action: 'on' });
    await planned(clock, 30_000);
    await clock.advance(30_000);
    const failed = await ended(h, second.runId);
    expect(failed.status).toBe('failed');
    expect(failed.message).toBe(
      "Sequence 'Slow' stopped at step 1 of 2 (Rack A outlets 6, 7): Not confirmed on within 30 s. No step done.",
    );
    expect(b.device.outlet(5).state).toBe(false);
    expect(a.device.outlet(6).physicalState).toBe(false);
  });
});
