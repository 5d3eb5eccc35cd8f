/**
 * The lab service's own entries in the activity log (controller id ''), asked for apart from every
 * controller's through `activity/list` and `activity/export`, on the SQLite lab store (the PostgreSQL
 * system test runs the same case: lab-entries-case.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { cleanUp } from '../harness';
import { labEntriesApart } from './lab-entries-case';

const dirs: string[] = [];
const opened: LabRecords[] = [];
afterEach(async () => {
  await cleanUp();
  for (const records of opened.splice(0)) await records.store.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("the lab service's own entries", () => {
  it('are asked for with the controller id "", apart from every controller, in the list and the export', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plugboard-lab-entries-'));
    dirs.push(dir);
    const records = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
    opened.push(records);
    await labEntriesApart(records);
  });
});
