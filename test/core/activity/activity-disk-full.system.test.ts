/**
 * A full disk, for real (a 64 KiB tmpfs, test/core/full-disk.ts): the activity log loses nothing it
 * acknowledged and leaves no part of a line, ids stay unique across a restart, and a save says the disk
 * is full instead of "internal error". (Mounting takes root and the `mount` command: a system test.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { FakeClock } from '../fake-clock';
import { canMountTmpfs, fullDisk, type FullDisk } from '../full-disk';
import { cleanUp, newCore } from '../harness';

const disks: FullDisk[] = [];
afterEach(async () => {
  await cleanUp();
  for (const disk of disks.splice(0)) disk.unmount();
});
function disk(): FullDisk {
  const made = fullDisk();
  disks.push(made);
  return made;
}

const entry = (outlet: number): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A with a long enough name to fill pages',
  outlet,
  action: 'on — switched by a script that also leaves a long explanation in the log, as scripts do',
  actor: { door: 'cli', who: 'alice' },
  result: 'ok',
  error: null,
});

/** The file's lines: every one must be a whole entry. */
function lines(file: string): ActivityEntry[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ActivityEntry);
}

describe.runIf(canMountTmpfs)('the activity log on a full disk (a real tmpfs)', () => {
  it('keeps what it could not write in memory, says so once, leaves no torn line, and writes it all once there is room', async () => {
    const full = disk();
    const file = join(full.dir, 'activity.jsonl');
    const clock = new FakeClock();
    const logged: string[] = [];
    const log = new ActivityLog({ clock, log: (message) => logged.push(message), file });
    log.add(entry(1));
    await log.flush();
    full.fill();
    // More than the rest of the file's last page: the write gets part-way, then ENOSPC.
    for (let outlet = 2; outlet <= 40; outlet++) log.add(entry(outlet));
    await log.flush();
    expect(lines(file).map((e) => e.outlet)).toEqual([1]);
    for (let outlet = 41; outlet <= 60; outlet++) log.add(entry(outlet));
    await clock.advance(5_000);
    await log.flush();
    expect(lines(file).map((e) => e.outlet)).toEqual([1]);
    expect(logged.filter((m) => /disk is full/.test(m))).toHaveLength(1);
    expect(logged.join('\n')).toMatch(
      /could not write the activity log .*: the disk is full\. 39 entries wait/,
    );
    expect(log.list()).toHaveLength(60);

    full.free();
    await clock.advance(5_000);
    await log.flush();
    expect(lines(file).map((e) => e.outlet)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(logged.at(-1)).toMatch(/is written again: 59 waiting entries are in it now$/);
  });

  it('says, when it stops with the disk still full, how many entries it could not write', async () => {
    const full = disk();
    const file = join(full.dir, 'activity.jsonl');
    const logged: string[] = [];
    const log = new ActivityLog({ clock: new FakeClock(), log: (message) => logged.push(message), file });
    log.add(entry(1));
    await log.flush();
    full.fill();
    for (let outlet = 2; outlet <= 40; outlet++) log.add(entry(outlet));
    await log.close();
    expect(logged.at(-1)).toBe(
      `stopping with 39 activity entries not written to ${file} (it could not be written)`,
    );
    expect(lines(file).map((e) => e.outlet)).toEqual([1]);
  });

  it('gives no id twice across a restart, even to entries that never reached the file', async () => {
    const full = disk();
    const file = join(full.dir, 'activity.jsonl');
    const clock = new FakeClock();
    const before = new ActivityLog({ clock, log: () => undefined, file });
    before.add(entry(1));
    await before.flush();
    full.fill();
    const shown = Array.from({ length: 30 }, (_, i) => before.add(entry(i + 2)).id);
    await before.flush();
    expect(lines(file)).toHaveLength(1);
    // The process ends with those entries unwritten; a second later the service starts again.
    full.free();
    await clock.advance(1_000);
    const after = new ActivityLog({ clock, log: () => undefined, file });
    const next = after.add(entry(99)).id;
    expect(shown).not.toContain(next);
    expect(next).toBeGreaterThan(Math.max(...shown));
  });

  it('answers a save with the disk full with a sentence saying so and what to do', async () => {
    const full = disk();
    const h = newCore({ store: openConfStore(full.dir) });
    await h.ok('settings/set', { theme: 'light' });
    full.fill();
    const result = await h.call('settings/set', { theme: 'dark' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe(
      `Plugboard could not save its settings: the disk holding ${full.dir} is full, so nothing was changed.`,
    );
    expect(result.error.action).toMatch(/^Free some space on that disk/);
    expect(result.error.detail).toMatchObject({ diskFull: true });
    full.free();
    await h.ok('settings/set', { theme: 'dark' });
  });
});
