/**
 * `plugboard activity` over a config folder whose lab store holds more than a page: --since and --until
 * narrow to a range; --csv and --json without --limit write the whole log, oldest first, as the store
 * reads it page by page (the same CSV the window exports, the same JSON document); a range that ends
 * before it starts is a usage error; a store a command migrated records the version that did it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import { activityCsv } from '../../src-main/core/index';
import { openLabRecords } from '../../src-main/core/saved-core';
import { ROOT, cleanEnv, cli } from './run-cli';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 1);
let dir: string;
const seeded: ActivityEntry[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plugboard-cli-activity-'));
  const records = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  for (let n = 0; n < 2_345; n++) {
    const time = START + n * HOUR;
    seeded.push({
      id: time * 1000,
      time,
      controllerId: 'c1',
      controllerName: 'Bench A',
      outlet: (n % 8) + 1,
      action: n % 2 ? 'on' : 'off',
      source: n % 5 ? 'cli' : 'window',
      who: 'alice',
      result: 'ok',
      error: null,
    });
  }
  await records.activity.records.write(seeded);
  await records.store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => cleanEnv({ PLUGBOARD_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
const run = (...args: string[]) => cli(args, { env: env() });

it('narrows to --since … --until, both ends included', async () => {
  const since = new Date(START + 24 * HOUR).toISOString();
  const until = new Date(START + 30 * HOUR).toISOString();
  const result = await run('activity', '--since', since, '--until', until, '--json');
  expect(result.code).toBe(0);
  expect(result.json<ActivityEntry[]>().map((e) => e.time)).toEqual(
    [24, 25, 26, 27, 28, 29, 30].map((h) => START + h * HOUR),
  );
});

it('writes the whole log as CSV or JSON, oldest first, past one page', async () => {
  const csv = await run('activity', '--csv');
  expect(csv.code).toBe(0);
  expect(csv.stdout).toBe(activityCsv(seeded));
  const json = await run('activity', '--json', '--door', 'window');
  expect(json.stdout).toBe(
    `${JSON.stringify(
      seeded.filter((e) => e.source === 'window'),
      null,
      2,
    )}\n`,
  );
  const none = await run('activity', '--json', '--door', 'tray');
  expect(none.stdout).toBe('[]\n');
});

it('refuses a range that ends before it starts', async () => {
  const result = await run('activity', '--since', '2026-11-10', '--until', '2026-11-09');
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('--until is before --since');
});

it('refuses a store a newer Plugboard wrote, saying so, and leaves it as it was', async () => {
  const newer = mkdtempSync(join(tmpdir(), 'plugboard-cli-newer-'));
  try {
    const records = await openLabRecords(newer, '9.0.0', () => undefined, Date.now(), {});
    await records.store.db
      .updateTable('plugboard_schema')
      .set((eb) => ({ version: eb('version', '+', 1), written_by: '9.0.0' }))
      .execute();
    await records.store.close();
    const before = readFileSync(join(newer, 'lab-store.sqlite'));
    const result = await cli(['activity'], {
      env: cleanEnv({ PLUGBOARD_CONFIG_DIR: newer, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /The lab store .*lab-store\.sqlite has schema version \d+ \(written by Plugboard 9\.0\.0\), newer than this Plugboard .* knows \(schema version \d+\)\. Nothing in it was changed/,
    );
    expect(readFileSync(join(newer, 'lab-store.sqlite'))).toEqual(before);
  } finally {
    rmSync(newer, { recursive: true, force: true });
  }
});

it("records Plugboard's version (as --version prints it) in a store a command migrated", async () => {
  const fresh = mkdtempSync(join(tmpdir(), 'plugboard-cli-version-'));
  try {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const printed = await cli(['--version']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(`${version}\n`);
    const result = await cli(['activity'], {
      env: cleanEnv({ PLUGBOARD_CONFIG_DIR: fresh, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }),
    });
    expect(result.code, result.stderr).toBe(0);
    const db = new DatabaseSync(join(fresh, 'lab-store.sqlite'), { readOnly: true });
    try {
      expect(db.prepare('SELECT written_by FROM plugboard_schema').get()).toEqual({ written_by: version });
    } finally {
      db.close();
    }
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});
