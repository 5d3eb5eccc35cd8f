import { describe, expect, it } from 'vitest';
import type { Group, Reservation } from '../../../src-preload/model';
import { MemoryStore } from '../../../src-main/core/kernel/ports';
import {
  RESERVATIONS_KEY,
  RESERVATIONS_RELOAD_MS,
  Reservations,
} from '../../../src-main/core/reservations/reservations';
import type { ReservationBook } from '../../../src-main/core/reservations/reservation-book';
import { isPlugboardError } from '../../../src-main/shared/errors';
import { FakeClock } from '../fake-clock';

const DAY = 86_400_000;
const alice = { door: 'window', who: 'alice' } as const;
const bob = { door: 'cli', who: 'bob' } as const;

/** The Reservations of one Core over `store`, without controllers to poll: names are given. */
function reservationsOn(store: MemoryStore, clock = new FakeClock()) {
  const changes: Reservation[][] = [];
  const logged: string[] = [];
  const groups: Group[] = [];
  const reservations = new Reservations({
    store,
    clock,
    log: (message) => logged.push(message),
    groups: () => groups,
    names: {
      controller: (id) => (id === 'a' ? 'Bench A' : undefined),
      outlet: () => undefined,
      group: () => undefined,
      outletCount: () => 8,
    },
    onChanged: (list) => changes.push(list),
    onRecorded: () => undefined,
  });
  return { reservations, changes, logged, clock };
}

describe('reservations in the settings file', () => {
  it('wake at most an hour ahead, and announce a 30-day reservation only when it ends', async () => {
    const { reservations, changes, clock } = reservationsOn(new MemoryStore());
    await reservations.take(alice, {
      target: { kind: 'controller', controllerId: 'a' },
      reason: 'long soak',
      durationMs: 30 * DAY,
    });
    expect(changes).toHaveLength(1);
    expect(clock.nextIn()).toBe(3_600_000);
    await clock.advance(30 * DAY - 60_000);
    expect(changes).toHaveLength(1);
    expect(() => reservations.assertMayAct(bob, 'a', [1])).toThrow(/reserved by alice/);
    await clock.advance(120_000);
    expect(changes.at(-1)).toEqual([]);
    expect(() => reservations.assertMayAct(bob, 'a', [1])).not.toThrow();
    expect(clock.pendingTimers).toBe(0);
  });

  it('ignore a broken saved record (logged once) and keep the valid ones', () => {
    const store = new MemoryStore();
    const good: Omit<Reservation, 'covers'> = {
      id: 'r-1',
      target: { kind: 'outlet', controllerId: 'a', outlet: 2 },
      holder: 'alice',
      door: 'window',
      reason: 'x',
      createdAt: 1_700_000_000_000,
      expiresAt: 1_700_000_000_000 + DAY,
    };
    store.set(RESERVATIONS_KEY, [{ id: 'r-0', holder: 'mallory' }, good, 'junk']);
    const { reservations, logged } = reservationsOn(store);
    expect(reservations.list()).toEqual([{ ...good, covers: [{ controllerId: 'a', outlet: 2 }] }]);
    expect(logged).toEqual(['settings file: a saved reservation is invalid and was ignored']);
  });

  it('refuse to switch while the file cannot be read, rather than ignore what it holds', () => {
    const store = new MemoryStore();
    let broken = false;
    const get = store.get.bind(store);
    store.get = <T>(key: string, fallback: T): T => {
      if (broken && key === RESERVATIONS_KEY) throw new Error('Unexpected token } in JSON');
      return get(key, fallback);
    };
    const { reservations } = reservationsOn(store);
    broken = true;
    let refusal: unknown;
    try {
      reservations.assertMayAct(bob, 'a', [1]);
    } catch (error) {
      refusal = error;
    }
    expect(isPlugboardError(refusal) && refusal.code).toBe('INTERNAL');
    expect((refusal as Error).message).toContain('so it switches nothing for now');
  });
});

describe('reservations over a lab store that goes away', () => {
  it('say once that the store cannot be read, not every second, and once again when it reads', async () => {
    const clock = new FakeClock();
    const logged: string[] = [];
    let reachable = true;
    let reloads = 0;
    // The book's reads are what the store answers: while it is away, each reload fails.
    const book = {
      current: () => [],
      reload: async () => {
        reloads++;
        if (!reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      },
    } as unknown as ReservationBook;
    const reservations = new Reservations({
      store: new MemoryStore(),
      book,
      clock,
      log: (message) => logged.push(message),
      groups: () => [],
      names: {
        controller: () => undefined,
        outlet: () => undefined,
        group: () => undefined,
        outletCount: () => 8,
      },
      onChanged: () => undefined,
      onRecorded: () => undefined,
    });
    await clock.advance(3 * RESERVATIONS_RELOAD_MS);
    expect(logged).toEqual([]);
    reachable = false;
    const before = reloads;
    await clock.advance(10 * RESERVATIONS_RELOAD_MS);
    // It went on trying every second, and said so once.
    expect(reloads - before).toBe(10);
    expect(
      logged.filter((line) => /could not read the reservations in the lab store/.test(line)),
    ).toHaveLength(1);
    reachable = true;
    await clock.advance(2 * RESERVATIONS_RELOAD_MS);
    expect(logged.filter((line) => /read again/.test(line))).toHaveLength(1);
    expect(logged).toHaveLength(2);
    reservations.dispose();
  });
});
