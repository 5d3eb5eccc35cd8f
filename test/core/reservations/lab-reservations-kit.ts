/**
 * What reservations in the lab store must do on either engine (the SQLite test runs it in the fast
 * loop, the PostgreSQL one on the run's own cluster): two books whose views are stale, and two Cores on
 * one store racing for the same outlet, each time exactly one wins and the other is told who holds it.
 */
import { expect } from 'vitest';
import type { Reservation } from '../../../src-preload/contract';
import { ReservationBook } from '../../../src-main/core/reservations/reservation-book';
import type { LabRecords } from '../../../src-main/core/flows/lab-records';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { MemorySecretStore } from '../../../src-main/secrets';
import { addController, emulator, newCore } from '../harness';

const HOUR = 3_600_000;

const reservation = (id: string, holder: string, outlet: number | null, now: number): Reservation => ({
  id,
  target:
    outlet === null
      ? { kind: 'controller', controllerId: 'c1' }
      : { kind: 'outlet', controllerId: 'c1', outlet },
  covers: [{ controllerId: 'c1', outlet }],
  holder,
  door: 'cli',
  reason: 'testing',
  createdAt: now,
  expiresAt: now + HOUR,
});

/** Two books opened before either wrote: the store, not their views, refuses the second holder. */
export async function storeDecides(first: LabRecords, second: LabRecords): Promise<void> {
  const now = Date.now();
  const a = await ReservationBook.open(first.store, now);
  const b = await ReservationBook.open(second.store, now);
  expect(await a.add(reservation('r-a', 'alice', 3, now), now)).toBe(true);
  // Bob's view was read before alice took outlet 3, and a whole controller covers it.
  expect(await b.add(reservation('r-b', 'bob', null, now), now)).toBe(false);
  expect(await b.add(reservation('r-c', 'bob', 4, now), now)).toBe(true);
  // The same holder may hold overlapping ones, as before.
  expect(await a.add(reservation('r-d', 'alice', 3, now), now)).toBe(true);
  // PostgreSQL's view is read again now and then (the Core polls); SQLite's sees the commit at once.
  await b.reload(now);
  expect(
    b
      .current(now)
      .map((r) => r.id)
      .sort(),
  ).toEqual(['r-a', 'r-c', 'r-d']);
  // After its end, the outlet is free again.
  await a.remove('r-a', now);
  await a.remove('r-d', now);
  expect(await b.add(reservation('r-e', 'bob', 3, now), now)).toBe(true);
  // An expired one is no longer there, and no longer in the way.
  const later = now + 2 * HOUR;
  expect(await a.add(reservation('r-f', 'alice', null, later), later)).toBe(true);
}

/**
 * Two Cores on one config folder and one store (`records` opens the store for each), alice and bob,
 * take outlet 3 at the same time: exactly one has it, the other is refused with the sentence naming
 * the holder, and config.json holds no reservations.
 */
export async function twoCoresRace(dir: string, records: () => Promise<LabRecords>): Promise<void> {
  const secrets = new MemorySecretStore();
  const emu = await emulator({ initialStates: Array(8).fill(false) });
  const first = newCore({
    store: openConfStore(dir),
    dataDir: dir,
    records: await records(),
    secrets,
    user: 'alice',
  });
  const { id } = await addController(first, emu, { name: 'Bench A' });
  const second = newCore({
    store: openConfStore(dir),
    dataDir: dir,
    records: await records(),
    secrets,
    user: 'bob',
  });
  await second.core.ready;
  const take = (h: typeof first) =>
    h.call('reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: HOUR,
    });
  const results = await Promise.all([take(first), take(second)]);
  const won = results.filter((r) => r.ok);
  const lost = results.filter((r) => !r.ok);
  expect(won).toHaveLength(1);
  expect(lost).toHaveLength(1);
  const winner = (won[0] as { value: Reservation }).value;
  expect(lost[0]).toMatchObject({
    ok: false,
    error: {
      code: 'RESERVED',
      message: expect.stringMatching(
        new RegExp(
          `^Outlet 3 on Bench A is reserved by ${winner.holder} until [0-9: -]+: flashing firmware\\.$`,
        ),
      ),
      detail: { holder: winner.holder },
    },
  });
  // Both Cores list it, and the loser's switch is refused on the spot.
  expect(await first.ok('reservations/list', {})).toEqual([winner]);
  expect(await second.ok('reservations/list', {})).toEqual([winner]);
  const loser = winner.holder === 'alice' ? second : first;
  const refused = await loser.call('outlets/set', { controllerId: id, outlets: [3], on: true });
  expect(refused).toMatchObject({ ok: false, error: { code: 'RESERVED' } });
  expect(emu.device.outlets()[2]!.state).toBe(false);
  expect(openConfStore(dir).get('reservations', 'none')).toBe('none');
  // The winner's release reaches the other Core without a call of its own: it reads the store again.
  const winnerCore = loser === first ? second : first;
  await winnerCore.ok('reservations/release', { id: winner.id });
  await expect.poll(() => loser.all('reservations/changed').at(-1), { timeout: 10_000 }).toEqual([]);
  await loser.ok('outlets/set', { controllerId: id, outlets: [3], on: true });
}
