/**
 * Reservations: outlets, groups or controllers held by one person for a while, enforced in the Core before
 * any switch is queued.
 */
import * as v from 'valibot';
import type { Reservation } from '../model';
import { call, prose, id, controllerId, outletNumber, empty } from './blocks';

/** What a reservation covers, and its longest span. */
export const RESERVATION_MAX_MS = 30 * 24 * 3600_000;

const reservationTarget = v.variant('kind', [
  v.strictObject({ kind: v.literal('outlet'), controllerId, outlet: outletNumber }),
  v.strictObject({ kind: v.literal('group'), groupId: id }),
  v.strictObject({ kind: v.literal('controller'), controllerId }),
]);

export const reservationCalls = {
  /** Every current reservation (expired ones are gone), soonest expiry first. */
  'reservations/list': call(empty).returns<Reservation[]>(),
  /**
   * Reserve an outlet, a group or a controller for `durationMs` (1 minute to 30 days) or `until` (epoch
   * ms, at most 30 days ahead: BAD_INPUT beyond). RESERVED when someone else holds anything it overlaps;
   * the holder may take more. The reason's control characters become spaces (it is prose).
   */
  'reservations/take': call(
    v.pipe(
      v.strictObject({
        target: reservationTarget,
        reason: prose(200),
        durationMs: v.optional(
          v.pipe(
            v.number(),
            v.integer(),
            v.minValue(60_000, 'must be at least a minute'),
            v.maxValue(RESERVATION_MAX_MS, 'must be at most 30 days'),
          ),
        ),
        until: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      }),
      v.check(
        (input) => (input.durationMs === undefined) !== (input.until === undefined),
        'give either durationMs or until',
      ),
    ),
  ).returns<Reservation>(),
  /** End your own reservation (RESERVED if someone else holds it: break it instead). */
  'reservations/release': call(v.strictObject({ id })).returns<null>(),
  /** Who reservations taken through this door are held as (the window tells its own from others'). */
  'reservations/holder': call(empty).returns<{ holder: string }>(),
  /** End anyone's reservation, explicitly and with a reason; logged as yours. */
  'reservations/break': call(
    v.strictObject({
      id,
      reason: prose(200),
    }),
  ).returns<null>(),
} as const;
