/**
 * 16. The lab store: the activity log on SQLite (node:sqlite in a temporary folder) and on PostgreSQL
 * (Debian's 15, a cluster of the bench's own: test/system/postgres-cluster.ts), against today's file.
 *
 * - Append throughput: 20,000 entries through the Core's ActivityLog, 500 at a time, each lot written
 *   (flush) before the next: entries per second in the store. Baseline: the JSON-lines file.
 * - What a batch's write costs: entries are written many in one transaction. On SQLite the write runs
 *   synchronously and holds the event loop (an action arriving then waits for it); on PostgreSQL and the
 *   file the loop is free while it waits. 100 batches of 100 entries (500 actions a second): p99 of one
 *   batch's write, and p99 of `add` itself.
 * - What an answered action waits: a call is answered once its entry is written (activity-answers.ts);
 *   1,000 actions, one every 2 ms, each waiting for its own: p99 of that wait, per place.
 * - A filtered query over 1,000,000 entries (50 controllers × 8 outlets over 400 days): one outlet's last
 *   week, as `activity/list` asks it; median of 21. Target ≤ 100 ms. Baseline: the same question to a
 *   JSON-lines file of the million (read and filtered), which is what a file can do.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  answeredWaits,
  batchWrites,
  fileQuery,
  places,
  query,
  throughput,
} from '../core/activity/store-bench-kit';
import { startPostgresCluster } from '../system/postgres-cluster';
import { onCleanup } from './cleanup';
import { row, type Row } from './results';

export async function measureLabStore(): Promise<Row[]> {
  const root = await mkdtemp(join(tmpdir(), 'plugboard-bench-store-'));
  const cluster = await startPostgresCluster();
  const stop = onCleanup(async () => {
    await cluster.stop();
    await rm(root, { recursive: true, force: true });
  });
  const { sqlite, postgres, file } = places(root, cluster.url);
  let made = 0;
  const folder = async () => mkdtemp(join(root, `m${++made}-`));
  try {
    const rows: Row[] = [];
    const fileRate = await throughput(file);
    for (const place of [sqlite, postgres])
      rows.push(
        row({
          measurement: 16,
          figure: `append throughput, ${place.name}`,
          value: Math.round(await throughput(place)),
          unit: 'entries/s',
          target: '',
          met: null,
          baselines: [{ name: "today's JSON-lines file", value: Math.round(fileRate) }],
          note: '20,000 entries through the ActivityLog, 500 per write (one transaction)',
        }),
      );
    const fileWrites = await batchWrites(file);
    for (const place of [sqlite, postgres]) {
      const measured = await batchWrites(place);
      rows.push(
        row({
          measurement: 16,
          figure: `p99 an action can wait for a batch's write, ${place.name}`,
          value: measured.write,
          unit: 'ms',
          target: '',
          met: null,
          baselines: [{ name: "today's JSON-lines file", value: fileWrites.write }],
          note: `${place.name === 'SQLite' ? 'synchronous: the event loop waits' : 'the event loop is free meanwhile'}; 100 entries per write, median ${measured.median.toFixed(1)} ms; the action's own add(): p99 ${(measured.add * 1000).toFixed(1)} µs`,
        }),
      );
    }
    for (const place of [sqlite, postgres, file]) {
      const waited = await answeredWaits(place);
      rows.push(
        row({
          measurement: 16,
          figure: `p99 an answered action waits for its entry to be written, ${place.name}`,
          value: waited.p99,
          unit: 'ms',
          target: '',
          met: null,
          baselines: [],
          note: `1,000 actions, one every 2 ms, each answered once its entry is written (the next write, started at once: a group commit); median ${waited.median.toFixed(2)} ms`,
        }),
      );
    }
    const end = Date.now();
    const fileMs = await fileQuery(await folder(), end);
    for (const place of [sqlite, postgres]) {
      const result = await query(place, end);
      rows.push(
        row({
          measurement: 16,
          figure: `one outlet's last week in 1,000,000 entries, ${place.name}`,
          value: result.median,
          unit: 'ms',
          target: '≤ 100',
          met: result.median <= 100,
          baselines: [{ name: 'the same question to a JSON-lines file', value: fileMs }],
          note: `median of 21 through activity/list's query (${result.found} entries found)`,
        }),
      );
    }
    return rows;
  } finally {
    await stop();
  }
}
