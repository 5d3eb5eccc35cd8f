/**
 * Reservations in cells and words: what a target covers (one cell per outlet, or the whole controller),
 * whether two overlap, and the one sentence a refusal says — the pdudaemon door passes it verbatim to
 * labgrid and LAVA, so it is one clean sentence: "Outlet 3 (Router) on Bench A is reserved by alice
 * until 14:30: flashing firmware."
 */
import type { Group, Reservation, ReservationCell, ReservationTarget } from '../../../src-preload/model';
import { capitalise, isPrintableTime, localDateTime, outletLabel } from '../../../src-preload/words';
import { neutralise, TEXT_LIMITS } from '../../shared/text';

/** One covered outlet, or every outlet of a controller (`outlet: null`). */
export type Cell = ReservationCell;

/**
 * What a target covers now (a group's current members; a group that is gone covers nothing). Called
 * when a reservation is taken: what it returns then is what the reservation covers for its whole life.
 */
export function cellsOf(target: ReservationTarget, groups: readonly Group[]): Cell[] {
  switch (target.kind) {
    case 'outlet':
      return [{ controllerId: target.controllerId, outlet: target.outlet }];
    case 'controller':
      return [{ controllerId: target.controllerId, outlet: null }];
    case 'group':
      return (groups.find((g) => g.id === target.groupId)?.members ?? []).map((m) => ({ ...m }));
  }
}

function cellsMeet(a: Cell, b: Cell): boolean {
  return (
    a.controllerId === b.controllerId && (a.outlet === null || b.outlet === null || a.outlet === b.outlet)
  );
}

/** The first cell of `wanted` that `held` covers, or null. */
export function overlap(wanted: readonly Cell[], held: readonly Cell[]): Cell | null {
  for (const cell of wanted) if (held.some((h) => cellsMeet(cell, h))) return cell;
  return null;
}

export interface Names {
  controller(id: string): string | undefined;
  outlet(controllerId: string, outlet: number): string | undefined;
  group(id: string): string | undefined;
  /** How many outlets the controller reported, or null before it did. */
  outletCount(controllerId: string): number | null;
}

/** "Outlet 3 (Router) on Bench A", "Bench A", "group \"Rack 7\"". */
export function describeCell(cell: Cell, names: Names): string {
  const controller = names.controller(cell.controllerId) ?? 'a controller that is no longer saved';
  if (cell.outlet === null) return controller;
  return `${capitalise(outletLabel(cell.outlet, names.outlet(cell.controllerId, cell.outlet)))} on ${controller}`;
}

export function describeTarget(target: ReservationTarget, names: Names): string {
  if (target.kind === 'group') {
    const name = names.group(target.groupId);
    return name === undefined ? 'a group that is no longer saved' : `group "${name}"`;
  }
  return describeCell(
    { controllerId: target.controllerId, outlet: target.kind === 'outlet' ? target.outlet : null },
    names,
  );
}

/** Local "HH:MM" when it is today, else "YYYY-MM-DD HH:MM" (the machine's time zone); never NaN. */
export function untilText(expiresAt: number, now: number): string {
  const full = localDateTime(expiresAt);
  if (!isPrintableTime(expiresAt) || !isPrintableTime(now)) return full;
  return new Date(now).toDateString() === new Date(expiresAt).toDateString() ? full.slice(11) : full;
}

/**
 * The reason as the end of a sentence (one trailing full stop, no line breaks, no control or
 * text-direction characters even in a reservation saved before they were cleaned on the way in).
 */
export function reasonText(reason: string): string {
  const flat = neutralise(reason, TEXT_LIMITS.reason).replace(/\s+/g, ' ').trim();
  return /[.!?…]$/.test(flat) ? flat : `${flat}.`;
}

/** "… is reserved by alice until 14:30: flashing firmware." */
export function reservedSentence(what: string, reservation: Reservation, now: number): string {
  return `${what} is reserved by ${reservation.holder} until ${untilText(reservation.expiresAt, now)}: ${reasonText(reservation.reason)}`;
}
