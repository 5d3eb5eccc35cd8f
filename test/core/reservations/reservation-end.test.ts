/**
 * A reservation's end is bounded (30 days, whether given as a duration or a time), and no date Plugboard
 * prints can read "NaN-NaN-NaN": a "permanent" reservation (an end no Date can hold) is refused, and one
 * saved before the bound is left out of the list instead of printed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { localDateTime } from '../../../src-preload/words';
import { untilText } from '../../../src-main/core/reservations/reservation-words';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

const DAY = 86_400_000;

describe('the end of a reservation', () => {
  it('is at most 30 days ahead, given as a time too; a permanent one is refused with a sentence', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ user: 'alice', clock });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const target = { kind: 'outlet', controllerId: id, outlet: 3 };
    for (const until of [clock.now() + 31 * DAY, 8.64e15, 1e16, Number.MAX_SAFE_INTEGER]) {
      const result = await h.call('reservations/take', { target, reason: 'soak test', until });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'BAD_INPUT',
          message: expect.stringMatching(
            /^A reservation lasts at most 30 days \(until \d{4}-\d\d-\d\d \d\d:\d\d\); this one would end later\.$/,
          ),
        },
      });
    }
    expect(await h.ok('reservations/list', {})).toEqual([]);
    await h.ok('reservations/take', { target, reason: 'soak test', until: clock.now() + 30 * DAY });
    for (const entry of await h.ok<{ action: string }[]>('activity/list', {}))
      expect(entry.action).not.toMatch(/NaN/);
  });

  it('a saved reservation with an end no Date can hold is ignored, not printed as NaN', async () => {
    const emu = await emulator();
    const h = newCore({ user: 'alice' });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    h.store.set('reservations', [
      {
        id: 'r-forever',
        target: { kind: 'outlet', controllerId: id, outlet: 3 },
        holder: 'mallory',
        door: 'json-api',
        reason: 'mine',
        createdAt: 0,
        expiresAt: 1e16,
      },
    ]);
    expect(await h.ok('reservations/list', {})).toEqual([]);
    await h.ok('outlets/set', { controllerId: id, outlets: [3], on: true });
  });

  it('dates print as words, never NaN', () => {
    expect(untilText(1e16, Date.now())).toBe('an unknown time');
    expect(localDateTime(Number.NaN, true)).toBe('an unknown time');
    expect(localDateTime(Date.UTC(2026, 0, 2, 3, 4, 5))).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  });
});
