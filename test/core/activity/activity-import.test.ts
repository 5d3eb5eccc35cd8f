/**
 * Nothing is lost on the way into the lab store: a config folder whose activity.jsonl was written by the
 * file-keeping activity log (the writer Plugboard used before the store, unchanged) is opened by the
 * saved Core; every entry is in the store once, the file stays as a backup, byte for byte, and a second
 * start imports nothing again.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { openSavedCore } from '../../../src-main/core/saved-core';
import { MemorySecretStore } from '../../../src-main/secrets';
import { FakeClock } from '../fake-clock';
import { storedActivity } from '../stored-activity';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-activity-import-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (outlet: number, over: Partial<NewActivity> = {}): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A',
  outlet,
  action: 'off',
  actor: { door: 'cli', who: 'alice' },
  result: 'ok',
  error: null,
  ...over,
});

it('moves the old activity.jsonl into the store once, keeping the file as a backup', async () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 20));
  // The folder as the previous version leaves it: its own writer, flushed, then stopped.
  const old = new ActivityLog({ clock, log: () => undefined, file: join(dir, 'activity.jsonl') });
  for (let outlet = 1; outlet <= 40; outlet++) {
    old.add(entry((outlet % 8) + 1));
    await clock.advance(60_000);
  }
  const refusal = entry(3, {
    action: 'refused',
    result: 'error',
    error: { code: 'RESERVED', message: 'Reserved by bob.', detail: { reservationId: 'r9' } },
    actor: { door: 'json-api', who: 'ci' },
  });
  old.refused(refusal);
  await old.flush();
  old.refused(refusal);
  await old.close();
  const before = old.list().reverse();
  expect(before).toHaveLength(41);
  const bytes = await readFile(join(dir, 'activity.jsonl'));

  const start = async () =>
    openSavedCore({
      shell: 'cli',
      version: '0.0.0-test',
      configDir: dir,
      secrets: new MemorySecretStore(),
      lazySessions: true,
      clock,
      log: () => undefined,
    });
  const core = await start();
  expect((await core.handlers['activity/list']({})).reverse()).toEqual(before);
  await core.dispose();

  const names = await readdir(dir);
  expect(names).not.toContain('activity.jsonl');
  const backups = names.filter((name) => name.startsWith('activity.jsonl.imported-'));
  expect(backups).toEqual(['activity.jsonl.imported-2026-11-20T00-40-00Z']);
  expect(await readFile(join(dir, backups[0]!))).toEqual(bytes);

  // Started again: nothing imported twice, no second backup.
  await (await start()).dispose();
  expect(storedActivity(dir)).toEqual(before);
  expect((await readdir(dir)).filter((name) => name.startsWith('activity.jsonl.'))).toEqual(backups);
});
