/**
 * Reservations in the lab store on SQLite: the store decides between stale views, two Cores on one file
 * racing for an outlet, and the move of config.json's reservations into the store at the first start
 * on a folder the settings-file code wrote (once, with config.json's copy kept).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Reservation } from '../../../src-preload/contract';
import { openLabRecords, type LabRecords } from '../../../src-main/core/flows/lab-records';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { MemorySecretStore } from '../../../src-main/secrets';
import { addController, cleanUp, emulator, newCore } from '../harness';
import { storeDecides, twoCoresRace } from './lab-reservations-kit';

afterEach(cleanUp);
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-lab-reservations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const opened: LabRecords[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.store.close()));
});

async function records(dir: string, logged: string[] = []): Promise<LabRecords> {
  const r = await openLabRecords(dir, '0.0.0-test', (m) => logged.push(m), Date.now(), {});
  opened.push(r);
  return r;
}

describe('reservations in the lab store (SQLite)', () => {
  it('the store refuses a second holder whose view is stale; one holder may overlap their own', async () => {
    const dir = mkdtempSync(path.join(scratch, 'books-'));
    await storeDecides(await records(dir), await records(dir));
  });

  it('two Cores on one file race for an outlet: exactly one wins, the other hears who holds it', async () => {
    const dir = mkdtempSync(path.join(scratch, 'race-'));
    await twoCoresRace(dir, () => records(dir));
  });

  it("moves config.json's reservations into the store once, keeping config.json's copy", async () => {
    const dir = mkdtempSync(path.join(scratch, 'import-'));
    const secrets = new MemorySecretStore();
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    // Written by the settings-file code: a Core without a lab store keeps them in config.json.
    const before = newCore({ store: openConfStore(dir), dataDir: dir, secrets, user: 'alice' });
    const { id } = await addController(before, emu, { name: 'Bench A' });
    const group = await before.ok<{ id: string }>('groups/save', {
      name: 'Rack 7',
      members: [
        { controllerId: id, outlet: 1 },
        { controllerId: id, outlet: 2 },
      ],
    });
    const held = [
      await before.ok<Reservation>('reservations/take', {
        target: { kind: 'outlet', controllerId: id, outlet: 3 },
        reason: 'flashing firmware',
        durationMs: 3_600_000,
      }),
      await before.ok<Reservation>('reservations/take', {
        target: { kind: 'group', groupId: group.id },
        reason: 'soak',
        durationMs: 7_200_000,
      }),
    ];
    await before.core.dispose();
    const configBefore = readFileSync(path.join(dir, 'config.json'), 'utf8');
    expect(JSON.parse(configBefore).reservations).toHaveLength(2);

    const logged: string[] = [];
    const first = await records(dir, logged);
    expect(first.reservations.current(Date.now())).toEqual(held);
    expect(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).reservations).toBeUndefined();
    const backups = readdirSync(dir).filter((f) => f.startsWith('config.json.imported-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(path.join(dir, backups[0]!), 'utf8')).toBe(configBefore);
    expect(logged.filter((line) => line.includes('config.json'))).toEqual([
      expect.stringMatching(
        /^moved 2 current reservation\(s\) from config\.json into the lab store \S+lab-store\.sqlite \(2 new\); config\.json as it was is kept as config\.json\.imported-/,
      ),
    ]);

    // A Core on the store holds them: bob is refused on the group's outlet.
    const after = newCore({ store: openConfStore(dir), dataDir: dir, records: first, secrets, user: 'bob' });
    opened.splice(opened.indexOf(first), 1);
    await after.core.ready;
    expect(await after.ok('reservations/list', {})).toEqual(held);
    expect(await after.call('outlets/set', { controllerId: id, outlets: [2], on: true })).toMatchObject({
      ok: false,
      error: { code: 'RESERVED', detail: { holder: 'alice' } },
    });
    await after.core.dispose();

    // Once: the next start moves nothing and keeps no second copy.
    const again: string[] = [];
    const second = await records(dir, again);
    expect(second.reservations.current(Date.now())).toEqual(held);
    expect(again).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith('config.json.imported-'))).toHaveLength(1);
    expect(existsSync(path.join(dir, 'config.json'))).toBe(true);
  });

  it('an unreadable config.json stops no start of the store: the move waits, and says so', async () => {
    const dir = mkdtempSync(path.join(scratch, 'unreadable-'));
    writeFileSync(path.join(dir, 'config.json'), '{"reservations": [', { mode: 0o600 });
    const logged: string[] = [];
    const opened = await records(dir, logged);
    expect(opened.reservations.current(Date.now())).toEqual([]);
    expect(logged).toEqual([
      'could not read config.json to move its reservations into the lab store; they stay there for now',
    ]);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe('{"reservations": [');
    expect(readdirSync(dir).filter((f) => f.startsWith('config.json.imported-'))).toEqual([]);
  });
});
