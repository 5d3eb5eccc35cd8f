/**
 * The controllers' live state as the Core pushes it (`state/changed`), for a command that must know the
 * outlets before it sends (names, critical outlets) or wait for the unit to confirm (--wait).
 */
import type { ContractError, ControllerState } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import type { CoreAccess } from './core-access';

/** Statuses that mean the controller cannot be used now (its `problem` says why). */
const FAILED = new Set(['offline', 'auth_failed', 'api_disabled', 'tls_changed', 'error', 'password_needed']);

export type Readiness = { state: ControllerState; problem: null } | { state: null; problem: ContractError };

export class StateWatch {
  readonly #latest = new Map<string, ControllerState>();
  readonly #waiters = new Set<() => void>();
  /** `id:outlet` of every outlet seen pending since watching began (a cycle is confirmed only after it). */
  readonly #pendingSeen = new Set<string>();
  readonly #unsubscribe: () => void;

  constructor(core: CoreAccess) {
    this.#unsubscribe = core.subscribe((name, payload) => {
      if (name !== 'state/changed') return;
      const state = payload as ControllerState;
      this.#latest.set(state.id, state);
      for (const outlet of state.outlets)
        if (outlet.pending) this.#pendingSeen.add(`${state.id}:${outlet.number}`);
      for (const wake of [...this.#waiters]) wake();
    });
  }

  /** States known before watching (a running service's); never older than what was pushed since. */
  seed(states: readonly ControllerState[]): void {
    for (const state of states) if (!this.#latest.has(state.id)) this.#latest.set(state.id, state);
  }

  sawPending(id: string, outlet: number): boolean {
    return this.#pendingSeen.has(`${id}:${outlet}`);
  }

  latest(id: string): ControllerState | undefined {
    return this.#latest.get(id);
  }

  /** Resolves with `check`'s first non-undefined answer, checked now and on every pushed state; undefined at the deadline. */
  until<T>(check: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    return new Promise((resolve) => {
      const finish = (value: T | undefined): void => {
        this.#waiters.delete(wake);
        clearTimeout(timer);
        resolve(value);
      };
      const wake = (): void => {
        const value = check();
        if (value !== undefined) finish(value);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      this.#waiters.add(wake);
      wake();
    });
  }

  /**
   * The controller's outlets as the Core read them: its session is started (a lazy Core starts it now)
   * and the first reading awaited; a controller that cannot be reached or logged in to gives its problem.
   */
  async ready(
    core: CoreAccess,
    id: string,
    name: string,
    timeoutMs: number,
    enough: (state: ControllerState) => boolean = hasOutlets,
  ): Promise<Readiness> {
    const check = (): Readiness | undefined => {
      const state = this.#latest.get(id);
      if (!state) return undefined;
      if (state.status === 'online' && enough(state)) return { state, problem: null };
      if (FAILED.has(state.status) && state.problem) return { state: null, problem: state.problem };
      return undefined;
    };
    if (!check()) {
      // Addressing the controller starts its session; the answer comes as pushed states.
      core.call('controllers/refresh', { id }).catch(() => undefined);
    }
    const found = await this.until(check, timeoutMs);
    return (
      found ?? {
        state: null,
        problem: {
          code: 'TIMEOUT',
          message: `${name} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
        },
      }
    );
  }

  close(): void {
    this.#unsubscribe();
    this.#waiters.clear();
  }
}

const hasOutlets = (state: ControllerState): boolean => state.outlets.length > 0;

/**
 * One controller's live state, read through the Core for this command (its problem thrown): once its
 * outlets are known, or once `enough` says what the command needs is there.
 */
export async function readState(
  core: CoreAccess,
  id: string,
  name: string,
  enough: (state: ControllerState) => boolean = hasOutlets,
): Promise<ControllerState> {
  const watch = new StateWatch(core);
  try {
    watch.seed((await core.call('app/snapshot', {})).states);
    const ready = await watch.ready(core, id, name, 60_000, enough);
    if (!ready.problem) return ready.state;
    const { code, message, action, detail } = ready.problem;
    throw new PlugboardError(code, message, detail, action ? { action } : {});
  } finally {
    watch.close();
  }
}
