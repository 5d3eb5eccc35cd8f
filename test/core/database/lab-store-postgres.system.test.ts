/**
 * The lab store on PostgreSQL: the run's own cluster (Debian's postgresql, test/system/postgres-cluster.ts),
 * a database per test. The connection string comes from a file named by PLUGBOARD_DATABASE_URL_FILE and
 * never shows in what the store says of itself; the same migrations as SQLite; a newer schema refused
 * untouched; and the activity log's rows behave as on SQLite: filters and time range, a counted refusal
 * one row, pages oldest first, retention by age, ids continued after a restart, the old file moved in,
 * and the lab service's own entries asked for apart.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { openLabStore } from '../../../src-main/core/database/lab-store';
import { SCHEMA_VERSION, storedVersion } from '../../../src-main/core/database/migrations';
import { STORE_PLACE_FILE } from '../../../src-main/core/database/store-place';
import type { PlugboardError } from '../../../src-main/shared/errors';
import { FakeClock } from '../fake-clock';
import { sharedPostgresDatabase } from '../../system/shared-postgres';
import { cleanUp } from '../harness';
import { labEntriesApart } from '../activity/lab-entries-case';

const DAY = 86_400_000;
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'plugboard-pg-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
/** A config folder and the environment that names a new database through a file. */
async function place(): Promise<{ dir: string; env: NodeJS.ProcessEnv; url: string }> {
  const url = await sharedPostgresDatabase();
  const urlFile = join(scratch, `url-${++n}`);
  writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
  return { dir: mkdtempSync(join(scratch, 'c-')), env: { PLUGBOARD_DATABASE_URL_FILE: urlFile }, url };
}

const entry = (outlet: number, over: Partial<NewActivity> = {}): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A',
  outlet,
  action: 'on',
  actor: { door: 'window', who: 'Alice' },
  result: 'ok',
  error: null,
  ...over,
});

describe('the lab store on PostgreSQL', () => {
  it('comes from a file, says where it is without the password, and migrates once', async () => {
    const { dir, env, url } = await place();
    const store = await openLabStore(dir, '1.0.0', env);
    const password = new URL(url).password;
    expect(store.engine).toBe('postgres');
    expect(store.where).toMatch(/^PostgreSQL database "t_[0-9a-f]+" on 127\.0\.0\.1:\d+$/);
    expect(store.where).not.toContain(password);
    expect(await storedVersion(store.db)).toEqual({ version: SCHEMA_VERSION, writtenBy: '1.0.0' });
    await store.close();
    const again = await openLabStore(dir, '1.0.1', env);
    expect(await storedVersion(again.db)).toEqual({ version: SCHEMA_VERSION, writtenBy: '1.0.0' });
    // Nothing of SQLite in the folder: PostgreSQL holds it all, and the folder remembers where.
    expect(readdirSync(dir)).toEqual([STORE_PLACE_FILE]);
    expect(readFileSync(join(dir, STORE_PLACE_FILE), 'utf8')).not.toContain(password);
    await again.close();
  });

  it('is remembered by the folder: opened there without the database, it refuses rather than start a SQLite lab', async () => {
    const { dir, env } = await place();
    const store = await openLabStore(dir, '1.0.0', env);
    await store.close();
    const refused = await openLabStore(dir, '1.0.0', {}).then(
      () => null,
      (error: unknown) => error as PlugboardError,
    );
    expect(refused?.code).toBe('STORE');
    expect(refused?.message).toMatch(
      /^This config folder's lab is kept in PostgreSQL \(PostgreSQL database "t_[0-9a-f]+" on 127\.0\.0\.1:\d+\), but Plugboard was given no database here/,
    );
    expect(refused?.action).toContain('PLUGBOARD_DATABASE_URL_FILE');
    expect(readdirSync(dir)).toEqual([STORE_PLACE_FILE]);
    // Going back to SQLite on purpose: the file the sentence names is deleted.
    rmSync(join(dir, STORE_PLACE_FILE));
    const sqlite = await openLabStore(dir, '1.0.0', {});
    expect(sqlite.engine).toBe('sqlite');
    await sqlite.close();
  });

  it('refuses a schema a newer Plugboard wrote, and changes nothing', async () => {
    const { dir, env } = await place();
    const store = await openLabStore(dir, '1.0.0', env);
    await store.db
      .updateTable('plugboard_schema')
      .set({ version: SCHEMA_VERSION + 1, written_by: '7.0.0' })
      .execute();
    const tables = async () => (await store.db.introspection.getTables()).map((t) => t.name).sort();
    const before = await tables();
    const refusal = await openLabStore(dir, '1.0.0', env).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(refusal?.message).toContain(
      `schema version ${SCHEMA_VERSION + 1} (written by Plugboard 7.0.0), newer than this Plugboard 1.0.0 knows`,
    );
    expect(await tables()).toEqual(before);
    expect(await storedVersion(store.db)).toEqual({ version: SCHEMA_VERSION + 1, writtenBy: '7.0.0' });
    await store.close();
  });

  it('keeps the activity log as SQLite does', async () => {
    const { dir, env } = await place();
    const clock = new FakeClock(Date.UTC(2026, 10, 10));
    // The folder's old file moves in first.
    const old = new ActivityLog({ clock, log: () => undefined, file: join(dir, 'activity.jsonl') });
    old.add(entry(7, { time: clock.now() - 500 * DAY }));
    old.add(entry(8, { actor: { door: 'cli', who: 'bob' } }));
    await old.close();
    const opened: LabRecords = await openLabRecords(dir, '1.0.0', () => undefined, clock.now(), env);
    expect(readdirSync(dir).some((name) => name.startsWith('activity.jsonl.imported-'))).toBe(true);
    const log = new ActivityLog({ clock, log: () => undefined, stored: opened.activity, limit: 2 });
    const start = clock.now();
    for (let outlet = 1; outlet <= 5; outlet++) {
      await clock.advance(DAY);
      log.add(
        entry(
          outlet,
          outlet === 3 ? { outletName: 'DUT power', actor: { door: 'json-api', who: 'ci' } } : {},
        ),
      );
    }
    const refusal = entry(2, {
      action: 'refused',
      result: 'error',
      error: { code: 'RESERVED', message: 'Reserved by bob.', detail: { reservationId: 'r1' } },
      actor: { door: 'pdudaemon-http', who: 'lava' },
    });
    log.refused(refusal);
    await log.flush();
    await clock.advance(1_000);
    log.refused(refusal);
    const outlets = async (filter: Parameters<ActivityLog['query']>[0]) =>
      (await log.query(filter)).map((e) => e.outlet);
    expect(await outlets({})).toEqual([2, 5, 4, 3, 2, 1, 8, 7]);
    expect(await outlets({ who: 'ALICE', since: start + 2 * DAY, until: start + 4 * DAY })).toEqual([4, 2]);
    expect(await outlets({ door: 'json-api' })).toEqual([3]);
    expect(await outlets({ outletName: 'dut' })).toEqual([3]);
    expect(await outlets({ controllerId: 'c1', outlet: 2 })).toEqual([2, 2]);
    expect((await log.query({ door: 'pdudaemon-http' }))[0]).toMatchObject({ count: 2 });
    const pages: ActivityEntry[][] = [];
    for await (const page of log.oldestFirst({})) pages.push(page);
    expect(pages.flat().map((e) => e.outlet)).toEqual([7, 8, 1, 2, 3, 4, 5, 2]);
    const lastId = (await log.query({ limit: 1 }))[0]!.id;
    await log.close();
    expect(await opened.activity.records.prune(clock.now() - 400 * DAY)).toBe(1);
    await opened.store.close();

    const again = await openLabRecords(dir, '1.0.0', () => undefined, clock.now(), env);
    expect(again.activity.lastId).toBe(lastId);
    expect(await again.activity.records.select({ order: 'oldest', limit: 1 })).toMatchObject([{ outlet: 8 }]);
    await again.store.close();
  });

  it("answers the lab service's own entries apart, as SQLite does", async () => {
    const { dir, env } = await place();
    const records = await openLabRecords(dir, '1.0.0', () => undefined, Date.now(), env);
    try {
      await labEntriesApart(records);
    } finally {
      await cleanUp();
      await records.store.close();
    }
  });
});
