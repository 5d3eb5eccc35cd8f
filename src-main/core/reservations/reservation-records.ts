/**
 * Reservations as the settings file keeps them: validated reads, new ids, the detail of a refusal.
 * Each keeps what it covers (`covers`, fixed when taken); one saved before that was kept is read with
 * what its target covers at the first read, and written back that way (`migrated`).
 */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import {
  ACTIVITY_DOORS,
  type Group,
  type Reservation,
  type ReservationCell,
  type ReservationTarget,
} from '../../../src-preload/model';
import { isPrintableTime } from '../../../src-preload/words';
import { PlugboardError } from '../../shared/errors';
import { neutralise, TEXT_LIMITS } from '../../shared/text';
import type { KeyValueStore } from '../kernel/ports';
import { cellsOf } from './reservation-words';

/** Where the settings file keeps them (a Core without a lab store). */
export const RESERVATIONS_KEY = 'reservations';

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
  /** Absent in reservations saved before what they cover was kept with them. */
  covers: v.optional(
    v.array(
      v.object({
        controllerId: v.string(),
        outlet: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
      }),
    ),
  ),
});

export interface ReadReservations {
  /** The valid ones, each with what it covers. */
  list: Reservation[];
  /** Some were saved without what they cover: write `list` back so it stays what they cover now. */
  migrated: boolean;
}

export interface ReadHooks {
  /** Hears of each record left out as invalid. */
  invalid: () => void;
  /** What a target saved without `covers` covers now (its group's current members). */
  expand: (target: ReservationTarget) => ReservationCell[];
  /** Hears of an old record whose group is gone: it covered nothing, and is left out. */
  empty?: (reservation: Omit<Reservation, 'covers'>) => void;
}

/** The valid reservations of what was read. */
export function readReservations(raw: unknown, hooks: ReadHooks): ReadReservations {
  if (!Array.isArray(raw)) return { list: [], migrated: false };
  const list: Reservation[] = [];
  let migrated = false;
  for (const item of raw) {
    const parsed = v.safeParse(storedSchema, item);
    if (!parsed.success) {
      hooks.invalid();
      continue;
    }
    const { covers, ...rest } = parsed.output as Omit<Reservation, 'covers'> & { covers?: ReservationCell[] };
    if (covers !== undefined) {
      list.push({ ...rest, covers: covers.map((c) => ({ controllerId: c.controllerId, outlet: c.outlet })) });
      continue;
    }
    migrated = true;
    const expanded = hooks.expand(rest.target);
    if (expanded.length === 0) hooks.empty?.(rest);
    else list.push({ ...rest, covers: expanded });
  }
  return { list, migrated };
}

/**
 * The reservations kept in the settings file `store` (a Core without a lab store), each with what it
 * covers (`groups` expands one saved before that was kept); one of a group that is gone is told to `log`.
 */
export function readSettingsFile(
  store: KeyValueStore,
  groups: () => Group[],
  log: (message: string) => void,
  /** Hears of each invalid one (the caller says so once). */
  invalid: () => void,
): ReadReservations {
  let raw: unknown;
  try {
    raw = store.get<unknown>(RESERVATIONS_KEY, []);
  } catch (error) {
    throw new PlugboardError(
      'INTERNAL',
      `Plugboard could not read the reservations in its settings file (${error instanceof Error ? error.message : String(error)}), so it switches nothing for now.`,
      undefined,
      { cause: error, action: 'Fix or delete config.json in the Plugboard settings folder.' },
    );
  }
  return readReservations(raw, {
    invalid,
    expand: (target) => cellsOf(target, groups()),
    empty: (r) =>
      log(
        `settings file: reservation ${r.id} of ${r.holder} was of a group that is no longer saved, so it covered nothing; it was dropped`,
      ),
  });
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

/**
 * The reservations without what they cover of one controller (`kept`; one left covering nothing is
 * gone), and what each covered there (`ended`: the reservation with only those cells).
 */
export function withoutController(
  list: readonly Reservation[],
  controllerId: string,
): { kept: Reservation[]; ended: Reservation[] } {
  const kept: Reservation[] = [];
  const ended: Reservation[] = [];
  for (const r of list) {
    const there = r.covers.filter((c) => c.controllerId === controllerId);
    const rest = r.covers.filter((c) => c.controllerId !== controllerId);
    if (there.length > 0) ended.push({ ...r, covers: there });
    if (rest.length > 0) kept.push(there.length > 0 ? { ...r, covers: rest } : r);
  }
  return { kept, ended };
}
