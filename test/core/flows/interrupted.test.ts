/**
 * What a stopped process left, on the lab store (SQLite in a temporary config folder): a delayed cycle
 * keeps its promise to switch the outlet back on in the store while it stands; a promise left by a killed
 * process of this machine is reported at the next start (activity entry, notification) and not kept;
 * a run or promise of another service is left alone at start and taken over, marked and reported, when
 * this service begins to lead.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutletActionResult, SequenceRun } from '../../../src-preload/contract';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import type { PromisedSwitch } from '../../../src-main/core/actions/promised-switches';
import { DEAD_PID } from '../dead-pid';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';

let dir: string;
const opened: LabRecords[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-interrupted-'));
});
afterEach(async () => {
  await cleanUp();
  for (const records of opened.splice(0)) await records.store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const LOADED = { timeout: 15_000, interval: 10 };
const ASKED = Date.UTC(2026, 10, 27, 9, 30);

async function records(): Promise<LabRecords> {
  const lab = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  opened.push(lab);
  return lab;
}

const promise = (over: Partial<PromisedSwitch>): PromisedSwitch => ({
  id: 'p000000000001',
  controller_id: 'c1',
  controller_name: 'Bench A',
  outlet: 3,
  outlet_name: 'DUT 3',
  what: 'cycle: off for 30 s',
  door: 'pdudaemon-http',
  who: 'lava-worker',
  asked_at: ASKED,
  due_at: ASKED + 30_000,
  host: hostname(),
  pid: DEAD_PID,
  ...over,
});

/** A run that was at its second step of three when its process stopped writing. */
function runningRun(runId: string): SequenceRun {
  const step = (n: number, status: SequenceRun['steps'][number]['status']) => ({
    controllerId: 'c1',
    controllerName: 'Bench A',
    outlets: [n],
    delaySeconds: 0,
    status,
    error: null,
  });
  return {
    runId,
    groupId: 'g1',
    name: 'Rack 7 power-on',
    action: 'on',
    who: 'alice',
    door: 'cli',
    startedAt: ASKED,
    endedAt: null,
    status: 'running',
    steps: [step(1, 'done'), step(2, 'switching'), step(3, 'waiting')],
    current: 1,
    waitingUntil: null,
    message: null,
    timeline: [],
  } as unknown as SequenceRun;
}

const stored = (lab: LabRecords) => lab.activity.records.select({});

describe('interrupted work', () => {
  it('keeps a delayed cycle’s promise in the store from before the off until the on', async () => {
    const clock = new FakeClock();
    const lab = await records();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ clock, records: lab });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const cycling = h.call<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 3, delay: 30 });
    await vi.waitFor(() => expect(emu.device.outlet(2).state).toBe(false), LOADED);
    expect(await lab.promises.standing()).toEqual([
      expect.objectContaining({
        controller_id: id,
        outlet: 3,
        what: 'cycle: off for 30 s',
        door: 'window',
        host: hostname(),
        pid: process.pid,
      }),
    ]);
    await vi.waitFor(() => expect(clock.timersOf(30_000)).toBeGreaterThan(0), LOADED);
    await clock.advance(30_000);
    expect((await cycling).ok).toBe(true);
    expect(await lab.promises.standing()).toEqual([]);
  });

  it('refuses a delayed cycle before anything switches when the store cannot keep its promise', async () => {
    const lab = await records();
    const emu = await emulator({ initialStates: [true, true, true, true, true, true, true, true] });
    const h = newCore({ records: lab });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    // The store no longer takes the promise (its table gone, as a write the store refuses).
    await lab.store.db.schema.dropTable('promised_switch').execute();
    const writes = () => emu.device.stats.log.filter((e) => e.method !== 'GET').length;
    const before = writes();
    const result = await h.call<OutletActionResult>('outlets/cycle', {
      controllerId: id,
      outlet: 3,
      delay: 30,
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'STORE',
        message: expect.stringMatching(
          /^Did not cycle Bench A outlet 3: the lab store .* so nothing was switched\.$/,
        ),
      },
    });
    expect(writes()).toBe(before);
    expect(emu.device.outlet(2).state).toBe(true);
  });

  it('reports an outlet a killed process left off at the next start, without keeping the promise', async () => {
    const lab = await records();
    await lab.store.db.insertInto('promised_switch').values(promise({})).execute();
    const h = newCore({ records: lab });
    await h.core.ready;
    const rows = await stored(lab);
    expect(rows.map((e) => [e.controllerId, e.outlet, e.action, e.source, e.result])).toEqual([
      ['c1', 3, 'left off by an interrupted cycle', 'system', 'error'],
    ]);
    const sentence = rows[0]!.error!.message;
    expect(sentence).toContain('Bench A outlet 3 (DUT 3) was left off by an interrupted cycle');
    expect(sentence).toContain('lava-worker (pdudaemon-http) asked at');
    expect(sentence).toContain('did not switch it on');
    expect(h.notices).toEqual([{ title: 'Bench A outlet 3 left off', body: sentence }]);
    expect(await lab.promises.standing()).toEqual([]);
  });

  it('leaves another service’s run and promise alone at start, and stops and reports them on taking over', async () => {
    const lab = await records();
    await lab.store.db
      .insertInto('promised_switch')
      .values(promise({ host: 'lab-a.example', pid: process.pid }))
      .execute();
    const run = runningRun('s00000000000a');
    await lab.store.db
      .insertInto('sequence_run')
      .values({
        run_id: run.runId,
        host: 'lab-a.example',
        pid: process.pid,
        started_at: run.startedAt,
        updated_at: ASKED + 5_000,
        status: 'running',
        run: JSON.stringify(run),
      })
      .execute();
    const h = newCore({ records: lab });
    await h.core.ready;
    expect(await stored(lab)).toEqual([]);
    expect(await lab.promises.standing()).toHaveLength(1);

    const found = await h.core.recoverInterrupted({ self: 'lab-b' });
    expect(found.leftOff.map((p) => p.outlet)).toEqual([3]);
    expect(found.runs.map((r) => [r.runId, r.status])).toEqual([[run.runId, 'stopped']]);
    const [listed] = await h.ok<SequenceRun[]>('sequences/runs', {});
    expect(listed!.status).toBe('stopped');
    expect(listed!.steps.map((s) => s.status)).toEqual(['done', 'failed', 'skipped']);
    expect(listed!.message).toMatch(
      /^Sequence 'Rack 7 power-on' stopped at step 2 of 3 \(stopped by lab-b \(failover\) at \d\d:\d\d: the service running it on lab-a\.example no longer leads the lab, last progress at \d\d:\d\d; not replayed\): step 1 done\.$/,
    );
    const row = await lab.store.db.selectFrom('sequence_run').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('stopped');
    const rows = await stored(lab);
    expect(rows.map((e) => [e.outlet, e.action, e.who])).toEqual([
      [3, 'left off by an interrupted cycle', 'lab-b (failover)'],
      [null, "sequence 'Rack 7 power-on' interrupted", 'lab-b (failover)'],
    ]);
    expect(await lab.promises.standing()).toEqual([]);
    // Taking over again finds nothing more: nothing is reported or stopped twice.
    expect(await h.core.recoverInterrupted({ self: 'lab-b' })).toEqual({ runs: [], leftOff: [] });
  });
});
