/**
 * The audit trail survives abuse: refusals are counted into one entry per client and refusal, kept apart
 * from what was done, so a flood of them never pushes out who added a controller or took a reservation;
 * and no text reaches an entry with a control or text-direction character in it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../../src-preload/contract';
import type { ActivityEntry, Caller } from '../../../src-preload/model';
import { ActivityLog, type NewActivity } from '../../../src-main/core/activity/activity-log';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';

const dirs: string[] = [];
afterEach(async () => {
  await cleanUp();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-refusals-'));
  dirs.push(dir);
  return dir;
}

const fileEntries = (file: string): ActivityEntry[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ActivityEntry);

const refusal = (who: string, outlet = 3): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A',
  outlet,
  action: 'refused',
  actor: { door: 'pdudaemon-tcp', who },
  result: 'error',
  error: { code: 'RESERVED', message: 'Outlet 3 is reserved by alice.', detail: { reservationId: 'r-1' } },
});
const done = (outlet: number): NewActivity => ({
  controllerId: 'c1',
  controllerName: 'Bench A',
  outlet,
  action: 'on',
  actor: { door: 'window', who: 'alice' },
  result: 'ok',
  error: null,
});

describe('refusals in the activity log', () => {
  // 20,100 calls through the dispatcher: CPU-bound, about 10 s with both cores busy (stress-ng); the
  // timeout is a backstop for a hang, well above that.
  it(
    '20,100 refused pdudaemon switches leave the add and the reservation in memory and in the file',
    { timeout: 60_000 },
    async () => {
      const dataDir = scratch();
      const emu = await emulator();
      const h = newCore({ user: 'alice', dataDir });
      const { id } = await addController(h, emu, { name: 'Bench A' });
      await h.ok('reservations/take', {
        target: { kind: 'outlet', controllerId: id, outlet: 3 },
        reason: 'flashing firmware',
        durationMs: 3_600_000,
      });
      const mallory: Caller = { door: 'pdudaemon-tcp', who: 'pdudaemon client 127.0.0.1', role: 'operator' };
      for (let i = 0; i < 20_100; i++) {
        const result = (await dispatch(h.core.handlersAs(mallory), 'outlets/set', {
          controllerId: id,
          outlets: [3],
          on: false,
        })) as Result<unknown>;
        if (result.ok || result.error.code !== 'RESERVED') throw new Error('expected RESERVED');
      }
      const entries = await h.core.handlers['activity/list']({});
      const actions = entries.map((e) => e.action);
      expect(actions).toContain('added to Plugboard');
      expect(actions.some((a) => a.startsWith('reserved until'))).toBe(true);
      const refused = entries.filter((e) => e.action === 'refused');
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ count: 20_100, who: mallory.who, outlet: 3 });

      await h.core.dispose();
      const written = fileEntries(join(dataDir, 'activity.jsonl'));
      const last = new Map(written.map((e) => [e.id, e]));
      expect([...last.values()].map((e) => e.action)).toContain('added to Plugboard');
      expect([...last.values()].some((e) => e.action.startsWith('reserved until'))).toBe(true);
      expect([...last.values()].filter((e) => e.action === 'refused').map((e) => e.count)).toEqual([20_100]);
    },
  );

  it('counts the same refusal of one client within a minute as one entry, announced once per moment', async () => {
    const clock = new FakeClock();
    const file = join(scratch(), 'activity.jsonl');
    const announced: ActivityEntry[] = [];
    const log = new ActivityLog({ clock, log: () => undefined, file, onAdded: (e) => announced.push(e) });
    const first = log.refused(refusal('pdudaemon client 127.0.0.1'));
    for (let i = 0; i < 4; i++) {
      await clock.advance(40);
      log.refused(refusal('pdudaemon client 127.0.0.1'));
    }
    // Another outlet and another client are other refusals.
    log.refused(refusal('pdudaemon client 127.0.0.1', 4));
    log.refused(refusal('pdudaemon client 127.0.0.2'));
    expect(log.list().filter((e) => e.id === first.id)).toEqual([
      expect.objectContaining({ count: 5, time: first.time, lastTime: first.time + 160 }),
    ]);
    expect(log.size).toBe(3);
    // Listeners heard of the first refusal at once and of its count once a moment (200 ms), not four more times.
    await log.flush();
    expect(announced.filter((e) => e.id === first.id).map((e) => e.count)).toEqual([1, 5]);

    // A minute after the first, the same refusal starts a new entry.
    await clock.advance(60_000);
    expect(log.refused(refusal('pdudaemon client 127.0.0.1')).count).toBe(1);
    await log.flush();
    const reopened = new ActivityLog({ clock, log: () => undefined, file });
    expect(reopened.list().map((e) => [e.outlet, e.who, e.count])).toEqual([
      [3, 'pdudaemon client 127.0.0.1', 1],
      [3, 'pdudaemon client 127.0.0.2', 1],
      [4, 'pdudaemon client 127.0.0.1', 1],
      [3, 'pdudaemon client 127.0.0.1', 5],
    ]);
  });

  it('keeps at most its refusal bound of them, however many clients, and never in place of what was done', async () => {
    const clock = new FakeClock();
    const file = join(scratch(), 'activity.jsonl');
    const log = new ActivityLog({ clock, log: () => undefined, file, limit: 50, refusalLimit: 20 });
    for (let i = 1; i <= 50; i++) log.add(done(i));
    for (let i = 0; i < 20_100; i++) log.refused(refusal(`pdudaemon client 127.0.${i >> 8}.${i & 255}`));
    await log.flush();
    const kinds = (entries: ActivityEntry[]) => ({
      done: entries.filter((e) => e.result === 'ok').length,
      refused: entries.filter((e) => e.result === 'error').length,
    });
    expect(kinds(log.list())).toEqual({ done: 50, refused: 20 });
    // The file was compacted on the way: it holds the same, and a restart reads it back.
    const reopened = new ActivityLog({ clock, log: () => undefined, file, limit: 50, refusalLimit: 20 });
    expect(kinds(reopened.list())).toEqual({ done: 50, refused: 20 });
    expect(new Set(fileEntries(file).map((e) => e.id)).size).toBeLessThanOrEqual(2 * 70);
  });

  it('records no control or text-direction character from anyone', () => {
    const log = new ActivityLog({ clock: new FakeClock(), log: () => undefined, file: null });
    const entry = log.add({
      controllerId: 'c1',
      controllerName: 'Bench\u001b[31m A',
      outlet: 1,
      outletName: 'Scope\u202Egnp.exe',
      action: 'on\n[plugboard serve] forged line',
      actor: { door: 'json-api', who: 'eve\u0000\u2066' },
      result: 'error',
      error: { code: 'RESERVED', message: 'reserved:\r\nforged', action: 'ask\u009bsomeone' },
    });
    expect(entry).toMatchObject({
      controllerName: 'Bench[31m A',
      outletName: 'Scopegnp.exe',
      action: 'on [plugboard serve] forged line',
      who: 'eve',
      error: { message: 'reserved:  forged', action: 'asksomeone' },
    });
  });
});
