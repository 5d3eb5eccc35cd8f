/**
 * The lab store's benchmark kit (test/bench/m16-lab-store.ts measures with it): the activity log over
 * SQLite, PostgreSQL and today's file, and what is timed on each. Here, beside the Core's tests, because
 * it drives the log's room itself: no contract call appends a thousand entries at once.
 */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ActivityEntry } from '../../../src-preload/model';
import { answeredWhenKept } from '../../../src-main/core/activity/activity-answers';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { appendWhole, jsonLines, readActivityFile } from '../../../src-main/core/activity/activity-file';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { systemClock } from '../../../src-main/core/kernel/clock';
import { freshDatabase } from '../../system/postgres-cluster';

const now = () => performance.now();
/** Nearest-rank percentile (p in 0–100). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}
const median = (values: readonly number[]) => percentile(values, 50);

const DAY = 86_400_000;
const APPENDS = 20_000;
const BATCHES = 100;
const MILLION = 1_000_000;

export interface Place {
  name: string;
  /** The Core's log over this place (null records: memory only, or the file). */
  open(): Promise<{ log: ActivityLog; records: LabRecords | null; close(): Promise<void> }>;
}

const action = (n: number): NewActivity => ({
  controllerId: `c${n % 50}`,
  controllerName: `Bench ${n % 50}`,
  outlet: (n % 8) + 1,
  action: n % 2 ? 'on' : 'off',
  actor: { door: 'pdudaemon-http', who: 'lava' },
  result: 'ok',
  error: null,
});

export async function throughput(place: Place): Promise<number> {
  const { log, close } = await place.open();
  const t0 = now();
  for (let n = 0; n < APPENDS; n += 500) {
    for (let i = 0; i < 500; i++) log.add(action(n + i));
    await log.flush();
  }
  const seconds = (now() - t0) / 1000;
  await close();
  return APPENDS / seconds;
}

export async function batchWrites(place: Place): Promise<{ write: number; median: number; add: number }> {
  const { log, close } = await place.open();
  const writes: number[] = [];
  const adds: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    for (let i = 0; i < 100; i++) {
      const t0 = now();
      log.add(action(batch * 100 + i));
      adds.push(now() - t0);
    }
    const t0 = now();
    await log.flush();
    writes.push(now() - t0);
  }
  await close();
  return { write: percentile(writes, 99), median: median(writes), add: percentile(adds, 99) };
}

/**
 * What an answered action waits for its entry now: actions arriving every 2 ms (500 a second, as in
 * `batchWrites`), each recording its entry and answering once it is written (answeredWhenKept: the next
 * write, started at once, taking whatever arrived meanwhile). p99 and median of that wait, ms.
 */
export async function answeredWaits(place: Place): Promise<{ p99: number; median: number }> {
  const { log, close } = await place.open();
  const waits: number[] = [];
  const answers: Promise<void>[] = [];
  for (let n = 0; n < BATCHES * 10; n++) {
    answers.push(
      (async () => {
        const t0 = now();
        await answeredWhenKept(
          log,
          () => undefined,
          'a bench action',
          async () => {
            log.add(action(n));
          },
        );
        waits.push(now() - t0);
      })(),
    );
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await Promise.all(answers);
  await close();
  return { p99: percentile(waits, 99), median: median(waits) };
}

/** The million, 10,000 at a time, oldest first. */
function* million(end: number): Generator<ActivityEntry[]> {
  const start = end - 400 * DAY;
  const step = (400 * DAY) / MILLION;
  for (let from = 0; from < MILLION; from += 10_000) {
    const lot: ActivityEntry[] = [];
    for (let n = from; n < from + 10_000; n++) {
      const time = Math.floor(start + n * step);
      lot.push({
        id: time * 1000 + (n % 1000),
        time,
        controllerId: `c${n % 50}`,
        controllerName: `Bench ${n % 50}`,
        outlet: (Math.floor(n / 50) % 8) + 1,
        action: n % 2 ? 'on' : 'off',
        source: n % 3 ? 'pdudaemon-http' : 'cli',
        who: ['lava', 'ci-runner', 'alice', 'bob', 'labgrid'][n % 5]!,
        result: 'ok',
        error: null,
        batch: time * 1000 + (n % 1000),
      });
    }
    yield lot;
  }
}

export async function query(place: Place, end: number): Promise<{ median: number; found: number }> {
  const { log, records, close } = await place.open();
  for (const lot of million(end)) await records!.activity.records.write(lot);
  const filter = { controllerId: 'c17', outlet: 3, since: end - 7 * DAY, until: end };
  const times: number[] = [];
  let found = 0;
  for (let run = 0; run < 21; run++) {
    const t0 = now();
    found = (await log.query(filter)).length;
    times.push(now() - t0);
  }
  await close();
  return { median: median(times), found };
}

export async function fileQuery(dir: string, end: number): Promise<number> {
  const file = join(dir, 'million.jsonl');
  for (const lot of million(end)) await appendWhole(file, jsonLines(lot));
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const t0 = now();
    const read = readActivityFile(file)!;
    read.entries.filter((e) => e.controllerId === 'c17' && e.outlet === 3 && e.time >= end - 7 * DAY);
    times.push(now() - t0);
  }
  return median(times);
}

/** SQLite, PostgreSQL (a new database on the cluster at `clusterUrl`) and the file, in folders under `root`. */
export function places(root: string, clusterUrl: string): { sqlite: Place; postgres: Place; file: Place } {
  let made = 0;
  const folder = async () => mkdtemp(join(root, `p${++made}-`));
  const inStore = (name: string, env: () => Promise<NodeJS.ProcessEnv>): Place => ({
    name,
    async open() {
      const records = await openLabRecords(await folder(), 'bench', () => undefined, Date.now(), await env());
      const log = new ActivityLog({ clock: systemClock, log: console.error, stored: records.activity });
      return {
        log,
        records,
        close: async () => {
          await log.close();
          await records.store.close();
        },
      };
    },
  });
  const sqlite = inStore('SQLite', async () => ({}));
  const postgres = inStore('PostgreSQL', async () => ({
    PLUGBOARD_DATABASE_URL: await freshDatabase(clusterUrl),
  }));
  const file: Place = {
    name: 'file',
    async open() {
      const log = new ActivityLog({
        clock: systemClock,
        log: console.error,
        file: join(await folder(), 'a.jsonl'),
      });
      return { log, records: null, close: () => log.close() };
    },
  };
  return { sqlite, postgres, file };
}
