/**
 * The lease row's SQL on PostgreSQL (the run's cluster, a database per test): one conditional UPDATE …
 * RETURNING decides, by the database's clock, so of many services claiming at once exactly one holds
 * it; the holder renews it; nobody else takes it before it runs out or is given up; the counter grows at
 * each change of holder, and a restarted service (the same name, a new process) is a new holder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { postgresLease } from '../../../src-main/core/database/service-lease';
import { sharedPostgresDatabase } from '../../system/shared-postgres';

const opened: LabStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function store(url: string): Promise<LabStore> {
  const opening = await openPostgresStore(url, '0.0.0-test');
  opened.push(opening);
  return opening;
}

describe('the lease row (PostgreSQL)', () => {
  it('of eight services claiming at once exactly one holds it, and the others hear who', async () => {
    const url = await sharedPostgresDatabase();
    const services = await Promise.all(
      Array.from({ length: 8 }, async (_, i) =>
        postgresLease((await store(url)).db, { name: `s${i}`, address: `https://s${i}.lab`, token: `t${i}` }),
      ),
    );
    const claims = await Promise.all(services.map((lease) => lease.claim(60_000)));
    const held = claims.flatMap((claim, i) => (claim.held ? [i] : []));
    expect(held).toHaveLength(1);
    const winner = held[0]!;
    expect(claims[winner]).toEqual({ held: true, epoch: 1 });
    for (const [i, claim] of claims.entries())
      if (i !== winner)
        expect(claim).toEqual({
          held: false,
          holder: { name: `s${winner}`, address: `https://s${winner}.lab`, epoch: 1 },
        });
  });

  it('the holder renews it; another takes it only once it runs out or is given up', async () => {
    const url = await sharedPostgresDatabase();
    const db = (await store(url)).db;
    const a = postgresLease(db, { name: 'a', address: null, token: 'a-1' });
    const b = postgresLease(db, { name: 'b', address: null, token: 'b-1' });
    expect(await a.claim(60_000)).toEqual({ held: true, epoch: 1 });
    expect(await a.claim(60_000)).toEqual({ held: true, epoch: 1 });
    expect(await b.claim(60_000)).toMatchObject({ held: false, holder: { name: 'a' } });
    // Given up (a clean stop): the other takes it at once, one holder later.
    await a.release();
    expect(await b.claim(60_000)).toEqual({ held: true, epoch: 2 });
    // Run out (renewed for no time, by the database's clock): a restarted `a` (a new process) takes it, a new holder again.
    expect(await b.claim(0)).toEqual({ held: true, epoch: 2 });
    const restarted = postgresLease(db, { name: 'a', address: null, token: 'a-2' });
    expect(await restarted.claim(60_000)).toEqual({ held: true, epoch: 3 });
    // The old process of the same name holds nothing.
    expect(await a.claim(60_000)).toMatchObject({ held: false, holder: { name: 'a', epoch: 3 } });
  });
});
