/** Reservations as the settings file keeps them: validated reads, new ids, the detail of a refusal. */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { ACTIVITY_DOORS, type Reservation } from '../../src-preload/model';
import { isPrintableTime } from '../../src-preload/words';
import { neutralise, TEXT_LIMITS } from '../shared/text';

const storedSchema = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  target: v.variant('kind', [
    v.object({ kind: v.literal('outlet'), controllerId: v.string(), outlet: v.number() }),
    v.object({ kind: v.literal('group'), groupId: v.string() }),
    v.object({ kind: v.literal('controller'), controllerId: v.string() }),
  ]),
  holder: v.string(),
  door: v.picklist(ACTIVITY_DOORS),
  reason: v.string(),
  createdAt: v.number(),
  // A time a Date can hold: one beyond it ("permanent") would print as NaN-NaN-NaN.
  expiresAt: v.pipe(v.number(), v.check(isPrintableTime)),
});

/** The valid reservations of what was read (`invalid` hears of each one left out). */
export function readReservations(raw: unknown, invalid: () => void): Reservation[] {
  if (!Array.isArray(raw)) return [];
  const valid: Reservation[] = [];
  for (const item of raw) {
    const parsed = v.safeParse(storedSchema, item);
    if (parsed.success) valid.push(parsed.output as Reservation);
    else invalid();
  }
  return valid;
}

/** What a RESERVED error carries: who holds it, until when (ISO and epoch ms), and why. */
export function detailOf(r: Reservation): Record<string, string | number> {
  return {
    reservationId: r.id,
    holder: r.holder,
    until: isPrintableTime(r.expiresAt) ? new Date(r.expiresAt).toISOString() : '',
    untilMs: r.expiresAt,
    reason: neutralise(r.reason, TEXT_LIMITS.reason),
  };
}

export function newReservationId(current: readonly Reservation[]): string {
  for (;;) {
    const id = `r-${randomBytes(3).toString('hex')}`;
    if (!current.some((r) => r.id === id)) return id;
  }
}
