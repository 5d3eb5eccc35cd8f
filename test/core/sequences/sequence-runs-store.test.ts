/**
 * Sequence runs in the lab store (SQLite): a folder whose runs the file-keeping code wrote (one stopped
 * when Plugboard quit, one killed) moves into the store once, the folder kept renamed; a Core on the
 * store shows both where they stopped, a dismissal leaves the store, and nothing is written to
 * sequence-runs/ again.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Group, SequenceRun } from '../../../src-preload/contract';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { SEQUENCE_RUNS_DIR } from '../../../src-main/core/sequences/sequence-file';
import { DEAD_PID } from '../dead-pid';
import { FakeClock } from '../fake-clock';
import { cleanUp, newCore } from '../harness';
import { delay, lab, planned, steps } from '../sequence-lab';

afterEach(cleanUp);
const scratch = mkdtempSync(join(tmpdir(), 'plugboard-seq-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function records(dataDir: string, logged: string[] = []): Promise<LabRecords> {
  return openLabRecords(dataDir, '0.0.0-test', (m) => logged.push(m), Date.now(), {});
}

describe('sequence runs in the lab store', () => {
  it('moves sequence-runs/ in once, shows the runs where they stopped, and keeps them in the store', async () => {
    const dataDir = mkdtempSync(join(scratch, 'runs-'));
    const clock = new FakeClock();
    // Written by the file-keeping code: a Core without a lab store, quit mid-run.
    const { h, ca, cb } = await lab({ clock, dataDir });
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7 power-on',
      steps: steps(ca, cb, [delay(60), delay(0), delay(0)]),
    });
    const { runId } = await h.ok<{ runId: string }>('sequences/run', { id: group.id, action: 'on' });
    await planned(clock, 60_000);
    const folder = join(dataDir, SEQUENCE_RUNS_DIR);
    const written = JSON.parse(readFileSync(join(folder, `${runId}.json`), 'utf8')) as { run: SequenceRun };
    const killedId = 's0123456789ab';
    writeFileSync(
      join(folder, `${killedId}.json`),
      JSON.stringify({ ...written, pid: DEAD_PID, run: { ...written.run, runId: killedId } }),
    );
    await h.core.dispose();
    expect(readdirSync(folder).sort()).toEqual([`${killedId}.json`, `${runId}.json`].sort());

    const logged: string[] = [];
    const first = await records(dataDir, logged);
    expect(existsSync(folder)).toBe(false);
    const backups = readdirSync(dataDir).filter((n) => n.startsWith(`${SEQUENCE_RUNS_DIR}.imported-`));
    expect(backups).toHaveLength(1);
    expect(readdirSync(join(dataDir, backups[0]!)).sort()).toEqual(
      [`${killedId}.json`, `${runId}.json`].sort(),
    );
    expect(logged.filter((m) => m.includes(SEQUENCE_RUNS_DIR))).toEqual([
      expect.stringMatching(
        /^moved 2 sequence run\(s\) from sequence-runs\/ into the lab store \S+ \(2 new\)/,
      ),
    ]);

    const next = newCore({ dataDir, clock, records: first });
    const runs = await next.ok<SequenceRun[]>('sequences/runs', {});
    expect(runs.map((r) => [r.runId, r.status]).sort()).toEqual(
      [
        [killedId, 'killed'],
        [runId, 'stopped'],
      ].sort(),
    );
    expect(runs.find((r) => r.runId === runId)!.message).toBe(
      "Sequence 'Rack 7 power-on' was stopped because Plugboard quit before step 2 of 3: step 1 done; steps done stay switched on.",
    );
    await next.ok('sequences/dismiss', { runId });
    await next.core.dispose();

    // The next start reads the store: the killed run (judged once, and so written) stays; the dismissed one is gone.
    const again: string[] = [];
    const second = await records(dataDir, again);
    expect(again).toEqual([]);
    expect(second.sequenceRuns.readAll().map((s) => [s.run.runId, s.run.status])).toEqual([
      [killedId, 'killed'],
    ]);
    await second.store.close();
    expect(existsSync(folder)).toBe(false);
  });
});
