/**
 * A full disk under the SQLite store, simulated with SQLite's own limit on the file's size
 * (max_page_count: SQLite answers SQLITE_FULL exactly as when the disk has no room left, without
 * filling a real disk or needing a small file system): a clear sentence in the log, the entries kept in
 * memory and written once there is room, and a file SQLite still finds whole.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openActivityRecords } from '../../../src-main/core/activity/activity-import';
import { ActivityLog } from '../../../src-main/core/activity/activity-log';
import { LAB_STORE_FILE, openSqliteStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { openDatabaseSync } from '../../../src-main/core/database/node-sqlite';
import { FakeClock } from '../fake-clock';

let dir: string;
let store: LabStore | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-store-full-'));
});
afterEach(async () => {
  await store?.close();
  store = null;
  await rm(dir, { recursive: true, force: true });
});

it('says the disk is full, keeps what waits, writes it once there is room, and the file stays whole', async () => {
  const file = join(dir, LAB_STORE_FILE);
  store = await openSqliteStore(file, '1.0.0', { maxPages: 40 });
  const clock = new FakeClock();
  const said: string[] = [];
  const stored = await openActivityRecords(store, dir, () => undefined, clock.now());
  const log = new ActivityLog({
    clock,
    log: (message) => said.push(message),
    stored,
    retryDelayMs: 5_000,
  });
  const add = (n: number) =>
    log.add({
      controllerId: 'c1',
      controllerName: 'Bench A',
      outlet: (n % 8) + 1,
      action: `on (${'x'.repeat(100)} ${n})`,
      actor: { door: 'pdudaemon-http', who: 'lava' },
      result: 'ok',
      error: null,
    });
  let n = 0;
  while (!said.some((line) => line.includes('full')) && n < 5_000) {
    for (let i = 0; i < 20; i++) add(n++);
    await log.flush();
  }
  expect(said).toEqual([
    expect.stringMatching(
      new RegExp(
        `^could not write the activity log \\(the lab store ${file.replace(/[.]/g, '\\.')}\\): the disk is full\\. 20 entries wait in memory and will be written as soon as it can; free some space on that disk\\.$`,
      ),
    ),
  ]);
  const written = (await store.db.selectFrom('activity').select('id').execute()).length;
  expect(written).toBe(n - 20);
  // Everything is still there for the window, the failed batch from memory.
  expect(await log.query()).toHaveLength(n);

  // Room again: the next retry writes what waited, and says so once.
  await sql`PRAGMA max_page_count = 100000`.execute(store.db);
  await clock.advance(5_000);
  await log.flush();
  expect(said.at(-1)).toMatch(/is written again: 20 waiting entries are in it now$/);
  expect((await store.db.selectFrom('activity').select('id').execute()).length).toBe(n);
  await log.close();
  await store.close();
  store = null;

  const raw = openDatabaseSync(file);
  expect(raw.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
  raw.close();
});
