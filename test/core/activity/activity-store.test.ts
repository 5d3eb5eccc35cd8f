/**
 * The activity log kept in the lab store (SQLite in a temporary config folder): every entry is there,
 * not only what memory holds; queries narrow by controller, outlet, person, door and time range; a
 * counted refusal is one row; exports read oldest first in pages; old entries leave by age.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { startRetention } from '../../../src-main/core/activity/activity-retention';
import { PlugboardError } from '../../../src-main/shared/errors';
import { FakeClock } from '../fake-clock';

let dir: string;
let opened: LabRecords[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-activity-store-'));
});
afterEach(async () => {
  for (const records of opened) await records.store.close();
  opened = [];
  await rm(dir, { recursive: true, force: true });
});

const DAY = 86_400_000;

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

async function open(clock: FakeClock, options: Partial<ConstructorParameters<typeof ActivityLog>[0]> = {}) {
  const records = await openLabRecords(dir, '0.0.0-test', () => undefined, clock.now(), {});
  opened.push(records);
  const log = new ActivityLog({ clock, log: () => undefined, stored: records.activity, ...options });
  return { log, records };
}

describe('the activity log in the lab store', () => {
  it('keeps every entry, not only what memory holds, and continues its ids after a restart', async () => {
    const clock = new FakeClock();
    const { log, records } = await open(clock, { limit: 3 });
    for (let outlet = 1; outlet <= 10; outlet++) {
      log.add(entry(outlet));
      await clock.advance(1_000);
    }
    expect(log.list()).toHaveLength(3);
    const all = await log.query();
    expect(all.map((e) => e.outlet)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    await log.close();
    await records.store.close();

    const again = await open(clock, { limit: 3 });
    expect((await again.log.query()).map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(again.log.add(entry(1)).id).toBeGreaterThan(all[0]!.id);
    expect(await again.log.query({ limit: 2 })).toHaveLength(2);
  });

  it('narrows by controller, outlet, person (any case), door and time range', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 10));
    const { log } = await open(clock);
    const start = clock.now();
    log.add(entry(3, { controllerId: 'c1' }));
    await clock.advance(DAY);
    log.add(entry(3, { controllerId: 'c2', actor: { door: 'cli', who: 'bob' } }));
    await clock.advance(DAY);
    log.add(entry(4, { controllerId: 'c1', actor: { door: 'json-api', who: 'ci-runner' } }));
    await clock.advance(DAY);
    log.add(entry(3, { controllerId: 'c1', outletName: 'DUT power' }));
    const outlets = async (filter: Parameters<ActivityLog['query']>[0]) =>
      (await log.query(filter)).map((e) => `${e.controllerId}:${e.outlet}@${(e.time - start) / DAY}`);
    expect(await outlets({ controllerId: 'c1', outlet: 3 })).toEqual(['c1:3@3', 'c1:3@0']);
    expect(await outlets({ who: 'ALICE' })).toEqual(['c1:3@3', 'c1:3@0']);
    expect(await outlets({ door: 'json-api' })).toEqual(['c1:4@2']);
    expect(await outlets({ outletName: 'dut' })).toEqual(['c1:3@3']);
    expect(await outlets({ since: start + DAY, until: start + 2 * DAY })).toEqual(['c1:4@2', 'c2:3@1']);
    expect(await outlets({ controllerId: 'c1', outlet: 3, since: start + 1 })).toEqual(['c1:3@3']);
  });

  it('keeps a counted refusal as one row whose count grows', async () => {
    const clock = new FakeClock();
    const { log, records } = await open(clock);
    const refusal = entry(2, {
      action: 'refused',
      result: 'error',
      error: { code: 'RESERVED', message: 'Reserved by alice.', detail: { reservationId: 'r1' } },
      actor: { door: 'pdudaemon-http', who: 'lava' },
    });
    log.refused(refusal);
    await log.flush();
    await clock.advance(5_000);
    log.refused(refusal);
    log.refused(refusal);
    await log.flush();
    const rows = await records.store.db.selectFrom('activity').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ count: 3, last_time: clock.now() });
    // A range that starts after its first refusal still finds it by its last.
    expect(await log.query({ since: clock.now() - 1_000 })).toMatchObject([{ count: 3 }]);
  });

  it('exports oldest first, page by page, with what only memory holds in its place', async () => {
    const clock = new FakeClock();
    const { log } = await open(clock, { persist: (e) => e.controllerId !== 'demo' });
    for (let n = 0; n < 2_500; n++) {
      log.add(entry((n % 8) + 1, n === 1_200 ? { controllerId: 'demo' } : {}));
      if (n % 500 === 0) await clock.advance(1);
    }
    const pages: ActivityEntry[][] = [];
    for await (const page of log.oldestFirst()) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const ids = pages.flat().map((e) => e.id);
    expect(ids).toHaveLength(2_500);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(pages.flat()[1_200]!.controllerId).toBe('demo');
  });

  it('lets entries go by age, not by count: at start, then daily, as the setting says then', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 10));
    const { log, records } = await open(clock);
    log.add(entry(1, { time: clock.now() - 500 * DAY }));
    log.add(entry(2, { time: clock.now() - 10 * DAY }));
    log.add(entry(3));
    await log.flush();
    let days = 400;
    const said: string[] = [];
    const retention = startRetention({
      records: records.activity.records,
      clock,
      log: (message) => said.push(message),
      days: () => days,
    });
    await retention.settled();
    expect((await log.query()).map((e) => e.outlet)).toEqual([3, 2]);
    expect(said).toEqual([
      'the activity log let go of 1 entries older than 400 days (activityRetentionDays)',
    ]);
    days = 5;
    await clock.advance(DAY);
    await retention.settled();
    expect((await log.query()).map((e) => e.outlet)).toEqual([3]);
    await retention.stop();
  });

  it("says so, as the store's error, when the store cannot be read", async () => {
    const clock = new FakeClock();
    const { log, records } = await open(clock);
    log.add(entry(1));
    await records.store.close();
    const failure = await log.query().then(
      () => null,
      (error: unknown) => error as PlugboardError,
    );
    expect(failure).toBeInstanceOf(PlugboardError);
    expect(failure).toMatchObject({
      code: 'STORE',
      message: `Plugboard could not read the activity log from ${records.store.where}.`,
    });
  });
});
