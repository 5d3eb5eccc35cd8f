/**
 * What a desk last knew of a lab's Core: its snapshot (controllers, states, groups, settings) and its
 * reservations, taken when the link opened and kept up to date from the lab's own events. While the
 * lab cannot be reached it is what the window and the tray show, as last known.
 */
import type { AppSnapshot, ControllerState, Reservation } from '../../src-preload/model';

export interface LastKnown {
  snapshot: AppSnapshot;
  reservations: Reservation[];
}

/** `known` after the lab's event `name`; events that change none of these leave it as it was. */
export function applyLabEvent(known: LastKnown, name: string, payload: unknown): LastKnown {
  const { snapshot } = known;
  switch (name) {
    case 'controllers/changed':
      return { ...known, snapshot: { ...snapshot, controllers: payload as AppSnapshot['controllers'] } };
    case 'state/changed': {
      const state = payload as ControllerState;
      const states = snapshot.states.some((s) => s.id === state.id)
        ? snapshot.states.map((s) => (s.id === state.id ? state : s))
        : [...snapshot.states, state];
      return { ...known, snapshot: { ...snapshot, states } };
    }
    case 'groups/changed':
      return { ...known, snapshot: { ...snapshot, groups: payload as AppSnapshot['groups'] } };
    case 'settings/changed':
      return { ...known, snapshot: { ...snapshot, settings: payload as AppSnapshot['settings'] } };
    case 'reservations/changed':
      return { ...known, reservations: payload as Reservation[] };
    default:
      return known;
  }
}
