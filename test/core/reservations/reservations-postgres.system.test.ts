/**
 * Reservations in the lab store on PostgreSQL (the run's own cluster, a database per test): the
 * exclusion constraint refuses a second holder whose view is stale, and two Cores on one database
 * racing for an outlet: exactly one wins, the other hears who holds it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { sharedPostgresDatabase } from '../../system/shared-postgres';
import { cleanUp } from '../harness';
import { storeDecides, twoCoresRace } from './lab-reservations-kit';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'plugboard-pg-reservations-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(cleanUp);
const opened: LabRecords[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.store.close()));
});

/** A config folder, and a way to open its store on a new database named through a file. */
async function place(): Promise<{ dir: string; records: () => Promise<LabRecords> }> {
  const url = await sharedPostgresDatabase();
  const dir = mkdtempSync(join(scratch, 'c-'));
  const urlFile = join(scratch, `${dir.split('/').pop()}.url`);
  writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
  const env = { PLUGBOARD_DATABASE_URL_FILE: urlFile };
  return {
    dir,
    records: async () => {
      const r = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), env);
      opened.push(r);
      return r;
    },
  };
}

describe('reservations in the lab store (PostgreSQL)', () => {
  it('the exclusion constraint refuses a second holder whose view is stale', async () => {
    const { records } = await place();
    const first = await records();
    expect(first.store.engine).toBe('postgres');
    await storeDecides(first, await records());
  });

  it('two Cores on one database race for an outlet: exactly one wins, the other hears who holds it', async () => {
    const { dir, records } = await place();
    await twoCoresRace(dir, records);
  });
});
