/**
 * Answered means kept: a call is answered once the activity entries it recorded are in the lab store
 * (SQLite in a temporary config folder), while what is recorded outside a call (the poller's records)
 * still waits for the gathering delay; a store that does not take the entries does not hold the answer
 * back, and the log says the answer went out before its entries were written.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutletActionResult } from '../../../src-preload/model';
import { answeredWhenKept } from '../../../src-main/core/activity/activity-answers';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import type { ActivityRecords } from '../../../src-main/core/activity/activity-records';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { FakeClock, settle } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';

let dir: string;
const opened: LabRecords[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-answers-'));
});
afterEach(async () => {
  await cleanUp();
  for (const records of opened.splice(0)) await records.store.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const entry = (outlet: number): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A',
  outlet,
  action: 'on',
  actor: { door: 'json-api', who: 'ci-runner' },
  result: 'ok',
  error: null,
});

async function records(): Promise<LabRecords> {
  const opening = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  opened.push(opening);
  return opening;
}

describe('answered means kept', () => {
  it("answers a call once its entry is in the store; the poller's records keep their delay", async () => {
    const clock = new FakeClock();
    const lab = await records();
    const log = new ActivityLog({ clock, log: () => undefined, stored: lab.activity });
    const stored = async () => (await lab.activity.records.select({})).map((e) => e.outlet);

    log.add(entry(1)); // the poller's: outside any call
    await settle();
    expect(await stored()).toEqual([]);

    const answer = await answeredWhenKept(
      log,
      () => undefined,
      'a switch',
      async () => {
        log.add(entry(2));
        return 'switched';
      },
    );
    expect(answer).toBe('switched');
    // Its write took what was queued with it (a group commit), the poller's entry too.
    expect(await stored()).toEqual([2, 1]);
    await log.close();
  });

  it('answers a switch through the Core only once its entry is in the lab store', async () => {
    const emu = await emulator();
    const lab = await records();
    const h = newCore({ records: lab });
    const { id } = await addController(h, emu);
    const result = await h.ok<OutletActionResult>('outlets/set', {
      controllerId: id,
      outlets: [3],
      on: false,
    });
    expect(result.failed).toEqual([]);
    const rows = await lab.activity.records.select({ controllerId: id, outlet: 3 });
    expect(rows.map((e) => [e.action, e.source, e.result])).toEqual([['off', 'window', 'ok']]);
  });

  it('still answers when the store does not take the entry, and says it is not written yet', async () => {
    const clock = new FakeClock();
    const failing = {
      store: { where: 'at the test' },
      write: () => Promise.reject(new Error('the database does not answer')),
    } as unknown as ActivityRecords;
    const logged: string[] = [];
    const log = new ActivityLog({
      clock,
      log: (m) => logged.push(m),
      stored: { records: failing, lastId: 0 },
    });
    const answer = await answeredWhenKept(
      log,
      (m) => logged.push(m),
      'a switch',
      async () => {
        log.add(entry(2));
        return 'switched';
      },
    );
    expect(answer).toBe('switched');
    expect(logged).toEqual([
      expect.stringMatching(/^could not write the activity log \(the lab store at the test\)/),
      'answered a switch before its activity entry was written: the lab store does not take them now (they wait in memory and are written when it does)',
    ]);
    expect(log.list().map((e) => e.outlet)).toEqual([2]);
  });
});
