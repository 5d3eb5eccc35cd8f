/**
 * One controller's pushed state, watched while a pdudaemon request runs: the latest state, and a wait
 * until an outlet's physical state is confirmed (its pending change settled by a poll).
 */
import type { ControllerState, EventSink, OutletState } from '../../src-preload/contract';
import { PduRefusal } from './pdudaemon-request';

export interface EventSource {
  subscribe(sink: EventSink): () => void;
}

export class StateWatch {
  #latest: ControllerState | null;
  #waiters = new Set<() => void>();
  readonly #stop: () => void;

  constructor(core: EventSource, controllerId: string, initial: ControllerState | null) {
    this.#latest = initial;
    this.#stop = core.subscribe((name, payload) => {
      if (name !== 'state/changed') return;
      const state = payload as ControllerState;
      if (state.id !== controllerId) return;
      this.#latest = state;
      for (const wake of [...this.#waiters]) wake();
    });
  }

  get latest(): ControllerState | null {
    return this.#latest;
  }

  outlet(number: number): OutletState | null {
    return this.#latest?.outlets.find((o) => o.number === number) ?? null;
  }

  /**
   * The outlet once the controller is online and it has no pending change: its confirmed state. Refuses
   * (504) after `timeoutMs`, or (503) when `signal` aborts (the listener is closing).
   */
  settled(number: number, timeoutMs: number, signal: AbortSignal, words: string): Promise<OutletState> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const outlet = this.outlet(number);
        if (this.#latest?.status !== 'online' || !outlet || outlet.pending) return;
        done();
        resolve(outlet);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new PduRefusal(
            504,
            `${words} was not confirmed within ${Math.round(timeoutMs / 1000)} s (${this.#latest?.status ?? 'no state'}); ask get-status again later.`,
          ),
        );
      }, timeoutMs);
      const aborted = () => {
        done();
        reject(
          new PduRefusal(
            503,
            `Plugboard is stopping: ${words} was not confirmed; ask get-status again later.`,
          ),
        );
      };
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        signal.removeEventListener('abort', aborted);
      };
      if (signal.aborted) return aborted();
      signal.addEventListener('abort', aborted);
      this.#waiters.add(check);
      check();
    });
  }

  close(): void {
    this.#stop();
    this.#waiters.clear();
  }
}
