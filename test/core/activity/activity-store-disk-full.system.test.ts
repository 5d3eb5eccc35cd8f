/**
 * A full disk, for real, under the SQLite store (a 1 MiB tmpfs, test/core/full-disk.ts): the log says the
 * disk is full, keeps what waits in memory, writes it once there is room, and SQLite finds its file whole
 * after a restart. (Mounting takes root and the `mount` command: a system test. The fast loop simulates
 * the same with SQLite's max_page_count: activity-store-full.test.ts.)
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openActivityRecords } from '../../../src-main/core/activity/activity-import';
import { ActivityLog } from '../../../src-main/core/activity/activity-log';
import { LAB_STORE_FILE, openSqliteStore } from '../../../src-main/core/database/lab-store';
import { openDatabaseSync } from '../../../src-main/core/database/node-sqlite';
import { FakeClock } from '../fake-clock';
import { canMountTmpfs, fullDisk, type FullDisk } from '../full-disk';

const disks: FullDisk[] = [];
afterEach(() => {
  for (const disk of disks.splice(0)) disk.unmount();
});

describe.runIf(canMountTmpfs)('the SQLite store on a full disk (a real tmpfs)', () => {
  it('says the disk is full, loses nothing it acknowledged, and leaves a whole file', async () => {
    const disk = fullDisk('1m');
    disks.push(disk);
    const file = join(disk.dir, LAB_STORE_FILE);
    const store = await openSqliteStore(file, '1.0.0');
    const clock = new FakeClock();
    const said: string[] = [];
    const log = new ActivityLog({
      clock,
      log: (message) => said.push(message),
      stored: await openActivityRecords(store, disk.dir, () => undefined, clock.now()),
    });
    const add = (n: number) =>
      log.add({
        controllerId: 'c1',
        controllerName: 'Bench A',
        outlet: (n % 8) + 1,
        action: `on (${'x'.repeat(200)} ${n})`,
        actor: { door: 'pdudaemon-http', who: 'lava' },
        result: 'ok',
        error: null,
      });
    for (let n = 0; n < 50; n++) add(n);
    await log.flush();
    disk.fill();
    let n = 50;
    while (!said.some((line) => line.includes('the disk is full')) && n < 20_000) {
      for (let i = 0; i < 50; i++) add(n++);
      await log.flush();
    }
    expect(said).toEqual([
      expect.stringMatching(
        /^could not write the activity log \(the lab store .*\): the disk is full\. \d+ entries wait in memory/,
      ),
    ]);
    expect(await log.query()).toHaveLength(n);

    disk.free();
    await clock.advance(5_000);
    await log.flush();
    expect(said.at(-1)).toMatch(/is written again: \d+ waiting entries are in it now$/);
    await log.close();
    await store.close();

    const raw = openDatabaseSync(file);
    expect(raw.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    expect(raw.prepare('SELECT count(*) AS n FROM activity').get()).toEqual({ n });
    raw.close();
  });
});
