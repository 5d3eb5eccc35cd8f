import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { systemClock } from '../../../src-main/core/kernel/clock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-activity-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (n: number, controllerId = 'c1'): NewActivity => ({
  controllerId,
  controllerName: 'Bench A',
  outlet: n,
  action: 'on',
  actor: { door: 'window', who: 'alice' },
  result: 'ok',
  error: null,
});

function open(options: Partial<ConstructorParameters<typeof ActivityLog>[0]> = {}) {
  const logged: string[] = [];
  const added: ActivityEntry[] = [];
  const log = new ActivityLog({
    clock: systemClock,
    log: (message) => logged.push(message),
    file: join(dir, 'activity.jsonl'),
    onAdded: (e) => added.push(e),
    ...options,
  });
  return { log, logged, added };
}

describe('the activity log', () => {
  it('filters by outlet, person (any case), door and time, newest first', () => {
    const { log } = open({ file: null });
    const at = (n: number, door: 'window' | 'cli', who: string, time: number): void => {
      log.add({ ...entry(n), actor: { door, who }, time });
    };
    at(1, 'window', 'alice', 1_000);
    at(2, 'cli', 'bob', 2_000);
    at(1, 'cli', 'Bob', 3_000);
    at(3, 'cli', 'carol', 4_000);
    // Each entry named by its time (the ids are the clock's, in microseconds).
    const times = (filter: Parameters<typeof log.list>[0]) => log.list(filter).map((e) => e.time);
    expect(times({ outlet: 1 })).toEqual([3_000, 1_000]);
    expect(times({ who: 'BOB' })).toEqual([3_000, 2_000]);
    expect(times({ door: 'window' })).toEqual([1_000]);
    expect(times({ since: 2_500 })).toEqual([4_000, 3_000]);
    expect(times({ door: 'cli', outlet: 1, since: 0, limit: 5 })).toEqual([3_000]);
  });

  it('keeps the newest entries up to its limit, newest first, filtered by controller', () => {
    const { log, added } = open({ limit: 5, file: null });
    for (let i = 1; i <= 8; i++) log.add(entry(i, i % 2 ? 'c1' : 'c2'));
    expect(log.size).toBe(5);
    expect(log.list().map((e) => e.outlet)).toEqual([8, 7, 6, 5, 4]);
    expect(log.list({ controllerId: 'c2' }).map((e) => e.outlet)).toEqual([8, 6, 4]);
    expect(log.list({ limit: 2 }).map((e) => e.outlet)).toEqual([8, 7]);
    expect(added).toHaveLength(8);
  });

  it('survives a restart: entries come back and ids continue', async () => {
    const first = open();
    first.log.add(entry(1));
    first.log.add({
      ...entry(2),
      result: 'error',
      error: { code: 'LOCKED', message: 'Outlet 2 is locked.' },
    });
    await first.log.flush();
    const second = open();
    const [two, one] = second.log.list();
    expect([one!.outlet, two!.outlet, two!.error?.code]).toEqual([1, 2, 'LOCKED']);
    expect(two!.id).toBeGreaterThan(one!.id);
    expect(second.log.add(entry(3)).id).toBeGreaterThan(two!.id);
  });

  it('does not write entries it is told not to persist (demo controllers)', async () => {
    const { log } = open({ persist: (e) => e.controllerId !== 'demo' });
    log.add(entry(1, 'demo'));
    log.add(entry(2, 'real'));
    await log.flush();
    const lines = (await readFile(join(dir, 'activity.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as ActivityEntry).controllerId)).toEqual(['real']);
  });

  it('skips damaged lines and compacts the file back to its limit', async () => {
    // Lines as 0.1 wrote them: a `source`, no `who` (read back as who: null).
    const good = (id: number) => {
      const { actor, ...rest } = entry(id);
      return JSON.stringify({ ...rest, source: actor.door, id, time: id });
    };
    await writeFile(join(dir, 'activity.jsonl'), `${good(1)}\n{"broken\n${good(2)}\nnot json\n`);
    const { log, logged } = open({ limit: 3, refusalLimit: 0 });
    expect(log.list().map((e) => e.id)).toEqual([2, 1]);
    expect(log.list()[0]).toMatchObject({ source: 'window', who: null });
    expect(logged.join('\n')).toMatch(/skipped 2 unreadable/);
    for (let i = 3; i <= 8; i++) log.add(entry(i));
    await log.flush();
    const lines = (await readFile(join(dir, 'activity.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as ActivityEntry).outlet)).toEqual([6, 7, 8]);
  });

  it('keeps each entry once when the file is compacted while newer entries wait to be written', async () => {
    const { log } = open({ limit: 3, refusalLimit: 0 });
    for (let i = 1; i <= 6; i++) log.add(entry(i));
    // This write reaches twice the limit and compacts the file; entry 7 comes while it is under way.
    const writing = log.flush();
    log.add(entry(7));
    await writing;
    await log.flush();
    const lines = (await readFile(join(dir, 'activity.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as ActivityEntry).outlet)).toEqual([5, 6, 7]);
    expect(
      open({ limit: 3, refusalLimit: 0 })
        .log.list()
        .map((e) => e.outlet),
    ).toEqual([7, 6, 5]);
  });

  it('keeps working in memory when the file cannot be written', async () => {
    await writeFile(join(dir, 'blocker'), 'a file where a folder should be');
    const { log, logged } = open({ file: join(dir, 'blocker', 'activity.jsonl') });
    log.add(entry(1));
    await log.flush();
    expect(log.list()).toHaveLength(1);
    expect(logged.join('\n')).toMatch(/could not write the activity log/);
  });
});
