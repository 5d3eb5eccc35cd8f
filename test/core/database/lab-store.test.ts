/**
 * The lab store on SQLite (node:sqlite through Kysely): the file owner-only in write-ahead-log mode,
 * migrated to this Plugboard's schema, a newer schema refused untouched, and transactions one at a time
 * on the one connection.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LAB_STORE_FILE, openLabStore, openSqliteStore } from '../../../src-main/core/database/lab-store';
import { SCHEMA_VERSION, storedVersion } from '../../../src-main/core/database/migrations';
import { openDatabaseSync } from '../../../src-main/core/database/node-sqlite';
import { isPlugboardError } from '../../../src-main/shared/errors';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const digest = async (file: string) =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

describe('the lab store on SQLite', () => {
  it('is a file of the config folder, owner-only, in WAL mode, at this schema version', async () => {
    const store = await openLabStore(dir, '9.9.9', {});
    try {
      expect(store.engine).toBe('sqlite');
      expect(store.where).toBe(join(dir, LAB_STORE_FILE));
      expect(await storedVersion(store.db)).toEqual({ version: SCHEMA_VERSION, writtenBy: '9.9.9' });
      await store.db
        .insertInto('activity')
        .values({
          id: 1,
          time: 1,
          controller_id: 'c',
          controller_name: 'C',
          outlet: 1,
          outlet_name: null,
          action: 'on',
          door: 'cli',
          who: 'a',
          who_folded: 'a',
          result: 'ok',
          error: null,
          batch: null,
          count: null,
          last_time: 1,
        })
        .execute();
    } finally {
      await store.close();
    }
    for (const name of [LAB_STORE_FILE, `${LAB_STORE_FILE}-wal`, `${LAB_STORE_FILE}-shm`]) {
      const info = await stat(join(dir, name)).catch(() => null);
      if (info) expect(info.mode & 0o777, name).toBe(0o600);
    }
    const raw = openDatabaseSync(join(dir, LAB_STORE_FILE));
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    raw.close();
  });

  it('opens again without migrating twice', async () => {
    await (await openLabStore(dir, '1.0.0', {})).close();
    const again = await openLabStore(dir, '1.0.1', {});
    // Nothing to run: the version row still names the Plugboard that migrated it.
    expect(await storedVersion(again.db)).toEqual({ version: SCHEMA_VERSION, writtenBy: '1.0.0' });
    await again.close();
  });

  it('is created by two Plugboards starting at once on a fresh folder: both open it, migrated once', async () => {
    // Two commands (say `activity --csv` and `inventory --csv`) on a folder that has no store yet.
    const stores = await Promise.all([openLabStore(dir, '1.0.0', {}), openLabStore(dir, '1.0.0', {})]);
    for (const store of stores)
      expect(await storedVersion(store.db)).toMatchObject({ version: SCHEMA_VERSION });
    await Promise.all(stores.map((store) => store.close()));
  });

  it('refuses a schema a newer Plugboard wrote, naming both versions, and changes nothing', async () => {
    const file = join(dir, LAB_STORE_FILE);
    await (await openSqliteStore(file, '1.0.0')).close();
    const raw = openDatabaseSync(file);
    raw.exec(`UPDATE plugboard_schema SET version = ${SCHEMA_VERSION + 1}, written_by = '7.0.0'`);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
    const before = await digest(file);
    const refusal = await openSqliteStore(file, '1.0.0').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isPlugboardError(refusal)).toBe(true);
    const message = (refusal as Error).message;
    expect(message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(message).toContain('Plugboard 7.0.0');
    expect(message).toContain(`Plugboard 1.0.0 knows (schema version ${SCHEMA_VERSION})`);
    expect(message).toMatch(/Nothing in it was changed/);
    expect(await digest(file)).toBe(before);
  });

  it('runs transactions one at a time on its one connection', async () => {
    const store = await openLabStore(dir, '1.0.0', {});
    const row = (id: number) => ({
      id,
      time: id,
      controller_id: 'c',
      controller_name: 'C',
      outlet: 1,
      outlet_name: null,
      action: 'on',
      door: 'cli',
      who: null,
      who_folded: null,
      result: 'ok',
      error: null,
      batch: null,
      count: null,
      last_time: id,
    });
    try {
      // Begun together: each inserts, yields, inserts again; one of them then fails and rolls back.
      const run = (first: number, fail: boolean) =>
        store.db.transaction().execute(async (tx) => {
          await tx.insertInto('activity').values(row(first)).execute();
          await new Promise((resolve) => setImmediate(resolve));
          await tx
            .insertInto('activity')
            .values(row(first + 1))
            .execute();
          if (fail) throw new Error('rolled back');
        });
      const results = await Promise.allSettled([run(10, false), run(20, true), run(30, false)]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const ids = (await store.db.selectFrom('activity').select('id').orderBy('id').execute()).map(
        (r) => r.id,
      );
      expect(ids).toEqual([10, 11, 30, 31]);
    } finally {
      await store.close();
    }
  });
});
