/*
 * What the reservations are given: where they are kept (the settings file, or the lab store's book), the
 * clock, the groups and names they are worded with, and whom they tell of each change.
 */
import type { Actor, Group, Reservation } from '../../../src-preload/model';
import type { PlugboardError } from '../../shared/errors';
import type { Logger } from '../../shared/logging';
import type { Clock } from '../kernel/clock';
import type { KeyValueStore } from '../kernel/ports';
import type { ReservationBook } from './reservation-book';
import type { Names } from './reservation-words';

export interface ReservationsOptions {
  store: KeyValueStore;
  /**
   * The lab store's reservations: when given they are kept there (the settings file's are not read),
   * and it decides between Cores that share it.
   */
  book?: ReservationBook | null;
  clock: Clock;
  log: Logger;
  groups: () => Group[];
  names: Names;
  /** Every change (taken, released, broken, expired, or another process's), with the current list. */
  onChanged: (list: Reservation[]) => void;
  /**
   * A take, release or break, for the activity log: one entry per controller of `reservation.covers`
   * (a controller's removal passes only the cells it ended).
   */
  onRecorded: (actor: Actor, reservation: Reservation, action: string) => void;
  /** A switch refused because someone else holds a reservation (the log shows who tried). */
  onRefused?: (
    actor: Actor,
    controllerId: string,
    outlets: 'all' | readonly number[],
    error: PlugboardError,
  ) => void;
}
