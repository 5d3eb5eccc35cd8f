/**
 * Measurement 18's desks, two kinds behind one face:
 *   - a desk with its own Core (the old way): an in-process Core with the unit saved, polling it itself
 *     at the default 3 s, its window "visible" (core-harness.ts);
 *   - a desk attached to the lab service: a remote link client (link/remote.ts, a signed-in session as
 *     bearer) that subscribes to the service Core's events and loads `app/snapshot`, as a window does.
 * Each keeps the unit's latest state as its window would show it.
 */
import type { ControllerState, EventName, OutletActionResult } from '../../src-preload/contract';
import { connectRemoteCore } from '../../src-main/link/remote';
import { onCleanup } from './cleanup';
import { startCore } from './core-harness';
import { now } from './numbers';

export interface Desk {
  name: string;
  /** The unit's latest state in this desk. */
  state(): ControllerState | undefined;
  /** Resolves with now() at the first state (already there, or pushed) for which `check` holds. */
  when(check: (state: ControllerState) => boolean, what: string, timeoutMs: number): Promise<number>;
  /** Switch outlets of the unit (saved state), answered when the unit answered the write. */
  set(outlets: number[], on: boolean): Promise<OutletActionResult>;
  /** Statuses other than online (after connecting) that this desk showed for the unit. */
  problems: string[];
  close(): Promise<void>;
}

/** One state per controller and waiters on it, fed by `push`. */
function stateKeeper(controllerId: () => string | null) {
  const states = new Map<string, ControllerState>();
  const waiters = new Set<() => void>();
  const problems: string[] = [];
  const push = (state: ControllerState): void => {
    states.set(state.id, state);
    if (state.id === controllerId() && state.status !== 'online' && state.status !== 'connecting')
      problems.push(state.status);
    for (const waiter of [...waiters]) waiter();
  };
  const state = (): ControllerState | undefined => {
    const id = controllerId();
    return id === null ? undefined : states.get(id);
  };
  const when = (check: (state: ControllerState) => boolean, what: string, timeoutMs: number) =>
    new Promise<number>((resolve, reject) => {
      const waiter = (): void => {
        const current = state();
        if (!current || !check(current)) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        resolve(now());
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      waiters.add(waiter);
      waiter();
    });
  return { states, push, state, when, problems };
}

/** A desk with its own Core polling the unit at `url` (the unit saved in its store, as an app has it). */
export async function ownCoreDesk(name: string, url: string): Promise<Desk> {
  const run = await startCore([url], { pollIntervalMs: 3000, visible: true });
  const id = run.ids[0]!;
  const keeper = stateKeeper(() => id);
  const unsubscribe = run.core.subscribe((event, payload) => {
    if (event === 'state/changed') keeper.push(payload as ControllerState);
  });
  for (const state of run.states.values()) keeper.push(state);
  return {
    name,
    state: keeper.state,
    when: keeper.when,
    set: (outlets, on) => run.call('outlets/set', { controllerId: id, outlets, on }),
    problems: keeper.problems,
    close: async () => {
      unsubscribe();
      await run.dispose();
    },
  };
}

/**
 * A desk attached to the service at `api` with a session: its window's link. `controllerName` picks the
 * unit among the service's controllers (the first one when null).
 */
export async function attachedDesk(
  name: string,
  api: string,
  session: string,
  controllerName: string | null,
): Promise<Desk & { states: Map<string, ControllerState> }> {
  const link = await connectRemoteCore(api, { token: session, handshakeMs: 60_000 });
  const close = onCleanup(() => link.close());
  let id: string | null = null;
  const keeper = stateKeeper(() => id);
  link.subscribe((event: EventName, payload) => {
    if (event === 'state/changed') keeper.push(payload as ControllerState);
  });
  const handlers = link.handlersAs({ door: 'window', who: name });
  const snapshot = await handlers['app/snapshot']({});
  // Pushed states that arrived while the snapshot was on its way are newer than the snapshot's.
  for (const state of snapshot.states) if (!keeper.states.has(state.id)) keeper.states.set(state.id, state);
  const unit = controllerName
    ? snapshot.controllers.find((c) => c.name === controllerName)
    : snapshot.controllers[0];
  id = unit?.id ?? null;
  return {
    name,
    states: keeper.states,
    state: keeper.state,
    when: keeper.when,
    set: (outlets, on) => {
      if (id === null) throw new Error(`${name}: the service has no controller to switch.`);
      return handlers['outlets/set']({ controllerId: id, outlets, on });
    },
    problems: keeper.problems,
    close,
  };
}
