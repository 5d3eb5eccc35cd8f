import { createSubscriber } from 'svelte/reactivity';
import type { ActivityEntry, ContractError } from '../../../src-preload/contract';
import { settle, type Backend } from '../backend';

/**
 * The activity log, newest first: loaded from `activity/list` and extended by `activity/added`. It listens
 * only while something on screen reads it, and keeps at most `limit` entries.
 */
export class ActivityFeed {
  #entries = $state.raw<ActivityEntry[]>([]);
  #error = $state.raw<ContractError | null>(null);
  #loaded = $state(false);
  readonly #subscribe: () => void;

  constructor(api: Backend, limit = 10_000) {
    this.#subscribe = createSubscriber(() => {
      let active = true;
      let listed = false;
      /** Events that came while the list loaded, newest first: newer than anything the list holds. */
      const arrived: ActivityEntry[] = [];
      const off = api.on('activity/added', (entry) => {
        if (!listed) arrived.unshift(entry);
        this.#entries = [entry, ...this.#entries].slice(0, limit);
      });
      // Every (re)start reloads: what happened while nobody looked comes from the list.
      void settle(api.activity.list({ limit })).then((result) => {
        if (!active) return;
        listed = true;
        if (result.ok) {
          const oldestArrived = arrived.at(-1)?.id ?? Infinity;
          const older = result.value.filter((e) => e.id < oldestArrived).sort((a, b) => b.id - a.id);
          this.#entries = [...arrived, ...older].slice(0, limit);
          this.#error = null;
        } else this.#error = result.error;
        this.#loaded = true;
      });
      return () => {
        active = false;
        off();
      };
    });
  }

  get entries(): ActivityEntry[] {
    this.#subscribe();
    return this.#entries;
  }

  get error(): ContractError | null {
    this.#subscribe();
    return this.#error;
  }

  get loaded(): boolean {
    this.#subscribe();
    return this.#loaded;
  }
}
