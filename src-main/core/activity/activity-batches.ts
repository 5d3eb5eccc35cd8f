/**
 * Which activity entries are one action: an all on, a selection, a group run. Each
 * entry of one action gets the id of its first entry as `batch`; the window shows them as one entry that
 * opens to its outlets.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActivityEntry, Actor } from '../../../src-preload/model';

/** What of a new entry decides its batch. */
type Recorded = Pick<ActivityEntry, 'controllerId' | 'action' | 'result'>;

export class ActivityBatches {
  /** The batches of this synchronous run: one request's entries are recorded in one loop. */
  #run: Map<string, number> | null = null;
  /** The batches of one action that spans several requests (a group run across controllers). */
  readonly #action = new AsyncLocalStorage<{ open: boolean; batches: Map<string, number> }>();

  /**
   * Run one action that sends several requests (a group run across controllers): what it records, with
   * the same actor, verb and result, is one batch, whichever controller it was on.
   */
  async asOneAction<T>(run: () => Promise<T>): Promise<T> {
    const action = { open: true, batches: new Map<string, number>() };
    try {
      return await this.#action.run(action, run);
    } finally {
      action.open = false;
    }
  }

  /**
   * The batch of a new entry (`id`): within one action, or else within one synchronous run with the
   * same controller, actor, verb and result; otherwise its own.
   */
  of(input: Recorded, actor: Actor, id: number): number {
    // Timers started during the action (a poll soon after) inherit its context: only while it runs.
    const action = this.#action.getStore();
    if (action?.open) {
      // One action over several controllers: the controller is not part of the key.
      return this.#join(action.batches, [actor.door, actor.who, input.action, input.result], id);
    }
    if (!this.#run) {
      const batches = new Map<string, number>();
      this.#run = batches;
      queueMicrotask(() => {
        if (this.#run === batches) this.#run = null;
      });
    }
    return this.#join(this.#run, [input.controllerId, actor.door, actor.who, input.action, input.result], id);
  }

  #join(batches: Map<string, number>, parts: (string | null)[], id: number): number {
    const key = parts.join('\u0000');
    const batch = batches.get(key) ?? id;
    batches.set(key, batch);
    return batch;
  }
}
