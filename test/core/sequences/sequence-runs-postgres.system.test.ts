/**
 * Sequence runs in the lab store on PostgreSQL (the run's own cluster, a database of its own): every
 * change of a run is written in the order made (the last one stays), a removal leaves the store, and the
 * next start reads them back with the machine and process that ran them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SequenceRun } from '../../../src-preload/contract';
import { openLabRecords } from '../../../src-main/core/flows/lab-records';
import { sharedPostgresDatabase } from '../../system/shared-postgres';

const scratch = mkdtempSync(join(tmpdir(), 'plugboard-pg-runs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (runId: string, current: number, status: SequenceRun['status']): SequenceRun =>
  ({
    runId,
    name: 'Rack 7 power-on',
    status,
    current,
    startedAt: 1_000 + Number.parseInt(runId.slice(-1), 16),
    steps: [],
    timeline: [],
  }) as unknown as SequenceRun;

describe('sequence runs in the lab store (PostgreSQL)', () => {
  it('keeps the last of many writes, forgets a removed run, and reads them back at the next start', async () => {
    const url = await sharedPostgresDatabase();
    const urlFile = join(scratch, 'url');
    writeFileSync(urlFile, url, { mode: 0o600 });
    const env = { PLUGBOARD_DATABASE_URL_FILE: urlFile };
    const dir = mkdtempSync(join(scratch, 'c-'));
    const first = await openLabRecords(dir, '0.0.0-test', () => undefined, 5_000, env);
    expect(first.store.engine).toBe('postgres');
    const book = first.sequenceRuns;
    // Many writes at once on a pool of connections: the last state is the one kept.
    for (let step = 0; step < 50; step++) book.write(run('s00000000000a', step, 'running'), 2_000 + step);
    book.write(run('s00000000000a', 50, 'stopped'), 3_000);
    book.write(run('s00000000000b', 0, 'running'), 3_000);
    book.remove('s00000000000b');
    await book.settled();
    await first.store.close();

    const again = await openLabRecords(dir, '0.0.0-test', () => undefined, 6_000, env);
    expect(again.sequenceRuns.readAll()).toEqual([
      {
        run: run('s00000000000a', 50, 'stopped'),
        pid: process.pid,
        host: hostname(),
        updatedAt: 3_000,
      },
    ]);
    await again.store.close();
  });
});
