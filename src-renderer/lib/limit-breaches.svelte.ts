import type { LimitBreach } from '../../src-preload/model';
import { settle, type Backend } from './backend';

/**
 * The meters outside their limits, as the Core publishes them (`meters/breaches`): loaded once and kept
 * current by the event, so the Overview, the navigation and the Meters tab show the Core's one list.
 */
export class LimitBreachesState {
  list = $state.raw<LimitBreach[]>([]);

  constructor(api: Backend) {
    // Listen first: a change between the load and its answer is not lost (the event carries the whole list).
    let heard = false;
    api.on('meters/breaches', (list) => {
      heard = true;
      this.list = list;
    });
    void settle(api.meters.breaches({})).then((result) => {
      if (result.ok && !heard) this.list = result.value;
    });
  }

  /** This controller's breaches, oldest first. */
  of(controllerId: string): LimitBreach[] {
    return this.list.filter((b) => b.controllerId === controllerId);
  }
}

const shared = new WeakMap<Backend, LimitBreachesState>();

/** The window's one breach list for this backend (made, and listening, on first use); null without one. */
export function limitBreaches(api: Backend | null): LimitBreachesState | null {
  if (!api) return null;
  let state = shared.get(api);
  if (!state) {
    state = new LimitBreachesState(api);
    shared.set(api, state);
  }
  return state;
}
