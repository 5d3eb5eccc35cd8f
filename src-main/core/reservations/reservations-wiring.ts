/**
 * The Core's reservations, wired: names from the registry and the live state, changes pushed as
 * `reservations/changed`, takes/releases/breaks in the activity log (one entry per controller covered),
 * refusals as counted entries (ActivityLog.refused),
 * and changes other processes make to the shared file followed as they happen.
 */
import type { Actor, Reservation } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import type { ActivityLog } from '../activity/activity-log';
import type { Clock } from '../kernel/clock';
import type { EventHub } from '../kernel/event-hub';
import type { KeyValueStore } from '../kernel/ports';
import type { ControllerRegistry } from '../saved/registry';
import { describeTarget, type Names } from './reservation-words';
import { Reservations } from './reservations';
import type { ReservationBook } from './reservation-book';
import type { SessionManager } from '../session/sessions';

export interface ReservationsDeps {
  store: KeyValueStore;
  /** The lab store's reservations, when the Core has a lab store. */
  book: ReservationBook | null;
  clock: Clock;
  log: Logger;
  events: EventHub;
  registry: ControllerRegistry;
  sessions: SessionManager;
  activity: ActivityLog;
}

export function createReservations(deps: ReservationsDeps): { reservations: Reservations; stop(): void } {
  const { registry, sessions, activity } = deps;
  const names: Names = {
    controller: (id) => registry.get(id)?.name,
    outlet: (controllerId, outlet) =>
      sessions.find(controllerId)?.state.outlets.find((o) => o.number === outlet)?.name,
    group: (id) => registry.listGroups().find((g) => g.id === id)?.name,
    outletCount: (controllerId) => sessions.find(controllerId)?.state.outlets.length || null,
  };
  const record = (actor: Actor, reservation: Reservation, action: string) => {
    const perController = new Map<string, number | null>();
    for (const cell of reservation.covers) {
      // One entry per controller: the outlet when it is the only one there, else the whole controller.
      perController.set(cell.controllerId, perController.has(cell.controllerId) ? null : cell.outlet);
    }
    const prefix =
      reservation.target.kind === 'group' ? `${describeTarget(reservation.target, names)}: ` : '';
    for (const [controllerId, outlet] of perController) {
      const controllerName = names.controller(controllerId);
      if (controllerName === undefined) continue;
      activity.add({
        controllerId,
        controllerName,
        outlet,
        action: `${prefix}${action}`,
        actor,
        result: 'ok',
        error: null,
      });
    }
  };
  const reservations = new Reservations({
    store: deps.store,
    book: deps.book,
    clock: deps.clock,
    log: deps.log,
    groups: () => registry.listGroups(),
    names,
    onChanged: (list) => deps.events.emit('reservations/changed', list),
    onRecorded: record,
    // Counted, and kept apart from what was done: a flood of refusals cannot push the log out.
    onRefused: (actor, controllerId, outlets, error) => {
      const controllerName = names.controller(controllerId);
      if (controllerName === undefined) return;
      for (const outlet of outlets === 'all' ? [null] : outlets)
        activity.refused({
          controllerId,
          controllerName,
          outlet,
          action: 'refused',
          actor,
          result: 'error',
          error: error.toContractError(),
        });
    },
  });
  // Over the lab store, Reservations reads it again itself; the settings file's changes are not theirs.
  const unwatch = deps.book
    ? () => undefined
    : (deps.store.watch?.(() => {
        try {
          reservations.refresh();
        } catch (error) {
          deps.log('could not re-read the reservations after another process changed them', error);
        }
      }) ?? (() => undefined));
  return {
    reservations,
    stop() {
      unwatch();
      reservations.dispose();
    },
  };
}
