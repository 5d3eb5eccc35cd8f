/**
 * The activity log after a crash mid-write: a line cut short is removed before anything is appended
 * after it, so the next entry is read back. (A full disk, for real: activity-disk-full.system.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { FakeClock } from '../fake-clock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const entry = (outlet: number): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A',
  outlet,
  action: 'on',
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

describe('the activity log after a crash mid-write', () => {
  it('removes a line cut short before appending, so the next entry is read back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugboard-torn-'));
    dirs.push(dir);
    const file = join(dir, 'activity.jsonl');
    const clock = new FakeClock();
    const first = new ActivityLog({ clock, log: () => undefined, file });
    first.add(entry(1));
    await first.flush();
    writeFileSync(file, '{"id":17000000000', { flag: 'a' });
    const logged: string[] = [];
    const second = new ActivityLog({ clock, log: (message) => logged.push(message), file });
    expect(logged).toContain('the activity log ended in part of a line (a write cut short); removed it');
    second.add(entry(2));
    await second.flush();
    expect(lines(file).map((e) => e.outlet)).toEqual([1, 2]);
    expect(new ActivityLog({ clock, log: () => undefined, file }).list().map((e) => e.outlet)).toEqual([
      2, 1,
    ]);
  });
});
