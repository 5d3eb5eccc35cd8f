/**
 * Sequences against what must stop them: critical outlets switched off without a
 * confirmation, reservations (checked up front for every step, and again per step), a stop when Plugboard
 * quits, and a killed run that the next start reports.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group, SequenceRun } from '../../../src-preload/contract';
import { SEQUENCE_RUNS_DIR } from '../../../src-main/core/sequences/sequence-file';
import { clockWords } from '../../../src-main/core/sequences/sequence-words';
import { DEAD_PID } from '../dead-pid';
import { FakeClock } from '../fake-clock';
import { cleanUp, newCore, until } from '../harness';
import { delay, ended, lab, LOADED, planned, states, steps } from '../sequence-lab';

afterEach(cleanUp);

describe('sequences and what stops them', () => {
  it('switches a critical outlet off only when confirmed, with the one refusal from every door', async () => {
    const { a, h, ca, cb } = await lab();
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(0), delay(0), delay(0)]),
    });
    const on = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    expect((await ended(h, on.runId)).status).toBe('done');
    a.device.setCritical(2, true);
    await until(h, ca.id, (s) => s.outlets[2]!.critical);
    const refusal = {
      code: 'CRITICAL_UNCONFIRMED',
      message:
        'Outlet 3 on Rack A is marked critical, so nothing was switched: confirm that it may lose power, then ask again.',
      detail: { confirmCritical: true, outlets: [`${ca.id}:3`] },
    };
    expect(await h.call('sequences/run', { id: group.id, action: 'off' })).toEqual({
      ok: false,
      error: refusal,
    });
    const tray = h.core.handlersAs('tray');
    await expect(tray['groups/run']({ id: group.id, action: 'off' })).rejects.toMatchObject(refusal);
    await expect(tray['sequences/run']({ id: group.id, action: 'off' })).rejects.toMatchObject(refusal);
    expect(states(a, [1, 3, 4])).toEqual([true, true, true]);
    const off = await h.ok<{ runId: string }>('sequences/run', {
      id: group.id,
      action: 'off',
      confirmCritical: true,
    });
    expect((await ended(h, off.runId)).status).toBe('done');
    expect(states(a, [1, 3, 4])).toEqual([false, false, false]);
  });

  it('is refused whole when someone else reserved any step, before anything switches', async () => {
    const { a, b, h, ca, cb } = await lab({ user: 'alice' });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(0), delay(0), delay(0)]),
    });
    const bob = h.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' });
    await bob['reservations/take']({
      target: { kind: 'outlet', controllerId: cb.id, outlet: 2 },
      reason: 'flashing',
      durationMs: 3_600_000,
    });
    const result = await h.call('sequences/run', { id: group.id, action: 'on' });
    expect(result).toMatchObject({
      ok: false,
      // The reservation's own sentence, as every other door says it.
      error: { code: 'RESERVED', message: expect.stringMatching(/^Outlet 2 on Rack B is reserved by bob /) },
    });
    expect(h.all('sequence/progress')).toEqual([]);
    expect(a.device.outlet(0).state).toBe(false);
    expect(b.device.outlet(1).state).toBe(false);
  });

  it('stops at a step reserved by someone else mid-run, with the sentence', async () => {
    const clock = new FakeClock();
    const { a, b, h, ca, cb } = await lab({ clock, user: 'alice' });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(30), delay(0), delay(0)]),
    });
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    await planned(clock, 30_000);
    const bob = h.core.handlersAs({ door: 'cli', who: 'bob', role: 'operator' });
    await bob['reservations/take']({
      target: { kind: 'controller', controllerId: cb.id },
      reason: 'flashing',
      durationMs: 3_600_000,
    });
    await clock.advance(30_000);
    const run = await ended(h, runId);
    expect(run.status).toBe('failed');
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'failed', 'waiting']);
    expect(run.steps[1]!.error).toMatchObject({ code: 'RESERVED' });
    expect(run.message).toMatch(
      /^Sequence 'Rack 7' stopped at step 2 of 3 \(Rack B outlet 2\): .*bob.* Step 1 done\.$/,
    );
    expect(a.device.outlet(0).state).toBe(true);
    expect(b.device.outlet(1).state).toBe(false);
    expect(states(a, [3, 4])).toEqual([false, false]);
  });

  it('stops at a step whose outlet was marked critical mid-run, with the one refusal', async () => {
    const clock = new FakeClock();
    const { a, b, h, ca, cb } = await lab({ clock });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(0), delay(0), delay(30)]),
    });
    const on = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    expect((await ended(h, on.runId)).status).toBe('done');
    // Off runs the steps in reverse: Rack A 3-4, a 30 s wait, then Rack B 2, marked critical meanwhile.
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'off' });
    await planned(clock, 30_000);
    // An administrator marks it critical during the wait (the session knows at once, no poll needed).
    await h.ok('outlets/configure', { controllerId: cb.id, outlet: 2, critical: true });
    await clock.advance(30_000);
    const run = await ended(h, runId);
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'failed', 'waiting']);
    expect(run.steps[1]!.error).toEqual({
      code: 'CRITICAL_UNCONFIRMED',
      message:
        'Outlet 2 on Rack B is marked critical, so nothing was switched: confirm that it may lose power, then ask again.',
      detail: { confirmCritical: true, outlets: [`${cb.id}:2`] },
    });
    expect([b.device.outlet(1).state, a.device.outlet(0).state]).toEqual([true, true]);
    expect(states(a, [3, 4])).toEqual([false, false]);
  });

  it('records a run stopped when Plugboard quits, and the next start shows a killed run where it stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-seq-'));
    const clock = new FakeClock();
    const { a, h, ca, cb } = await lab({ clock, dataDir });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7 power-on',
      steps: steps(ca, cb, [delay(60), delay(0), delay(0)]),
    });
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    await planned(clock, 60_000);
    const dir = join(dataDir, SEQUENCE_RUNS_DIR);
    const file = join(dir, `${runId}.json`);
    const written = JSON.parse(readFileSync(file, 'utf8')) as {
      run: SequenceRun;
      pid: number;
      updatedAt: number;
    };
    expect(written.run).toMatchObject({ status: 'running', current: 1 });

    // Killed: the file as the run left it, its process gone. A new Core on the same folder says where it stopped.
    const killedId = 's0123456789ab';
    writeFileSync(
      join(dir, `${killedId}.json`),
      JSON.stringify({ ...written, pid: DEAD_PID, run: { ...written.run, runId: killedId } }),
    );
    const next = newCore({ dataDir, clock });
    const [killed] = await next.ok<SequenceRun[]>('sequences/runs', {});
    expect(killed).toMatchObject({
      runId: killedId,
      status: 'killed',
      steps: [{ status: 'done' }, { status: 'skipped' }, { status: 'skipped' }],
    });
    expect(killed!.message).toBe(
      `Sequence 'Rack 7 power-on' stopped at step 2 of 3 (killed at ${clockWords(written.updatedAt)}): step 1 done.`,
    );
    // Reported once in the activity log, at the step where it stopped.
    await next.core.ready;
    expect(
      next
        .activity()
        .filter((e) => e.source === 'system')
        .map((e) => [e.action, e.controllerId, e.error?.message]),
    ).toEqual([["sequence 'Rack 7 power-on' interrupted", killed!.steps[1]!.controllerId, killed!.message]]);

    // Quit: the run ends after its step and is recorded as stopped.
    await h.core.dispose();
    const stopped = JSON.parse(readFileSync(file, 'utf8')) as { run: SequenceRun };
    expect(stopped.run.status).toBe('stopped');
    expect(stopped.run.message).toBe(
      "Sequence 'Rack 7 power-on' was stopped because Plugboard quit before step 2 of 3: step 1 done; steps done stay switched on.",
    );
    expect(a.device.outlet(0).state).toBe(true);
    expect(a.device.outlet(2).state).toBe(false);
    const third = newCore({ dataDir, clock });
    const runs = await third.ok<SequenceRun[]>('sequences/runs', {});
    expect(runs.map((r) => [r.runId, r.status]).sort()).toEqual(
      [
        [killedId, 'killed'],
        [runId, 'stopped'],
      ].sort(),
    );
    // Dismissed: gone from the folder, and a later start no longer shows it.
    await third.ok('sequences/dismiss', { runId: killedId });
    await third.ok('sequences/dismiss', { runId });
    expect(readdirSync(dir)).toEqual([]);
    await vi.waitFor(
      async () => expect(await newCore({ dataDir, clock }).ok('sequences/runs', {})).toEqual([]),
      LOADED,
    );
  });

  it('a stop during a step lets that step’s request finish, then records the run stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-seq-'));
    const clock = new FakeClock();
    const { a, h, ca, cb } = await lab({ clock, dataDir });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(0), delay(0), delay(0)]),
    });
    // Once the reads after adding are over, nothing but the step's request reaches A (the clock plans
    // no poll), and it takes a while: the stop comes while it is in flight.
    await until(h, ca.id, (s) => s.scripts !== null && s.users !== null && s.sshEnabled !== null);
    await vi.waitFor(() => expect(a.device.stats.inFlight).toBe(0), LOADED);
    a.device.latency = 400;
    a.device.stats.reset();
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    await vi.waitFor(() => expect(a.device.stats.inFlight).toBeGreaterThan(0), LOADED);
    await h.core.dispose();
    expect(a.device.stats.inFlight).toBe(0);
    expect(a.device.outlet(0).state).toBe(true);
    const stored = JSON.parse(readFileSync(join(dataDir, SEQUENCE_RUNS_DIR, `${runId}.json`), 'utf8')) as {
      run: SequenceRun;
    };
    expect(stored.run.status).toBe('stopped');
    expect(stored.run.steps.map((s) => s.status)).toEqual(['done', 'skipped', 'skipped']);
  });
});
