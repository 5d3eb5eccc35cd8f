/**
 * What a reservation refuses, in the Core's sentences: a switch of what someone else holds (RESERVED,
 * naming the holder), a take of a target that is not saved or an outlet the controller does not have,
 * a take that would end before it starts or more than 30 days away, and a release or break of a reservation that is no longer current.
 */
import type { Actor, Group, Reservation, ReservationTarget } from '../../../src-preload/model';
import { capitalise } from '../../../src-preload/words';
import { RESERVATION_MAX_MS } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import { detailOf } from './reservation-records';
import {
  describeCell,
  overlap,
  reservedSentence,
  untilText,
  type Cell,
  type Names,
} from './reservation-words';

/** Refuse (RESERVED) when someone other than `actor` holds a reservation in `current` covering `wanted`. */
export function assertFree(
  actor: Actor,
  wanted: readonly Cell[],
  current: readonly Reservation[],
  names: Names,
  now: number,
): void {
  for (const held of current) {
    if (held.holder === actor.who) continue;
    const cell = overlap(wanted, held.covers);
    if (!cell) continue;
    // The outlet asked for; for a whole controller, the outlet held there (or the controller).
    const heldThere =
      cell.outlet === null ? held.covers.find((c) => c.controllerId === cell.controllerId) : undefined;
    const what = describeCell(heldThere ?? cell, names);
    throw new PlugboardError('RESERVED', reservedSentence(capitalise(what), held, now), detailOf(held), {
      action: `Ask ${held.holder} to release it, or break the reservation with a reason.`,
    });
  }
}

/** Refuse a target that is not saved, or an outlet its controller is known not to have. */
export function checkTarget(target: ReservationTarget, groups: readonly Group[], names: Names): void {
  if (target.kind === 'group') {
    if (!groups.some((g) => g.id === target.groupId))
      throw new PlugboardError('NOT_FOUND', `No saved group has the id ${target.groupId}.`);
    return;
  }
  const name = names.controller(target.controllerId);
  if (name === undefined)
    throw new PlugboardError('NOT_FOUND', `No saved controller has the id ${target.controllerId}.`);
  const count = names.outletCount(target.controllerId);
  if (target.kind === 'outlet' && count !== null && target.outlet > count)
    throw new PlugboardError(
      'BAD_INPUT',
      `${name} has ${count} outlets, so there is no outlet ${target.outlet} to reserve.`,
    );
}

/** The current reservation `id`, or NOT_FOUND. */
export function findReservation(current: readonly Reservation[], id: string): Reservation {
  const found = current.find((r) => r.id === id);
  if (!found) {
    throw new PlugboardError('NOT_FOUND', `There is no current reservation ${id}.`, undefined, {
      action: 'It may have ended, expired or been broken: list the reservations to see what is held.',
    });
  }
  return found;
}

/** When a reservation asked for at `now` ends: `until`, or `now` plus `durationMs`; refused (BAD_INPUT) when past or too far. */
export function reservationEnd(
  input: { until?: number | undefined; durationMs?: number | undefined },
  now: number,
): number {
  const expiresAt = input.until ?? now + (input.durationMs ?? 0);
  if (expiresAt <= now) {
    throw new PlugboardError('BAD_INPUT', 'The reservation would end before it starts.', undefined, {
      action: 'Give a time in the future, or a duration.',
    });
  }
  // The same bound whichever way the end is given: a booking, not ownership, so a forgotten one lapses.
  if (expiresAt > now + RESERVATION_MAX_MS) {
    throw new PlugboardError(
      'BAD_INPUT',
      `A reservation lasts at most 30 days (until ${untilText(now + RESERVATION_MAX_MS, now)}); this one would end later.`,
      undefined,
      { action: 'Give an earlier end, and take it again when it ends if you still need it.' },
    );
  }
  return expiresAt;
}
