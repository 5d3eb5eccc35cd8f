/**
 * Promises to switch an outlet back on, kept in the lab store while they stand: a delayed cycle writes
 * one before its "off" goes out and removes it once its "on" was sent (whatever the unit answered: that
 * answer goes to whoever asked). A process killed in between leaves the row; the next Core on the store
 * (or the service that takes over the lab) finds it and reports the outlet as left off by an
 * interrupted cycle, without switching it on: nobody asks for that now, and the lab may have moved on.
 *
 * A row is written before the "off" and awaited: an outlet is never off by a cycle the store does not
 * know of. A store that does not take it refuses the cycle before anything switches.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../shared/logging';
import { PlugboardError } from '../../shared/errors';
import type { LabStore } from '../database/lab-store';
import type { PromisedSwitchTable } from '../database/schema';

export type PromisedSwitch = PromisedSwitchTable;

/** Where promises are kept: the lab store's table, or nowhere (a Core without a store). */
export interface PromiseKeeper {
  /** Keep the promise (before the off); resolves with its id once it is in the store. */
  promise(row: Omit<PromisedSwitch, 'id' | 'host' | 'pid'>): Promise<string>;
  /** The promise was kept (its "on" was sent) or has nothing to keep (the off failed). Never rejects. */
  settle(id: string): Promise<void>;
  /** Every promise still standing, oldest first. */
  standing(): Promise<PromisedSwitch[]>;
  /** The promises reported: they leave the store. */
  forget(ids: readonly string[]): Promise<void>;
}

export const NO_PROMISES: PromiseKeeper = {
  promise: () => Promise.resolve(''),
  settle: () => Promise.resolve(),
  standing: () => Promise.resolve([]),
  forget: () => Promise.resolve(),
};

export class PromisedSwitches implements PromiseKeeper {
  readonly #store: LabStore;
  readonly #log: Logger;
  readonly #host = hostname();

  constructor(store: LabStore, log: Logger) {
    this.#store = store;
    this.#log = log;
  }

  async promise(row: Omit<PromisedSwitch, 'id' | 'host' | 'pid'>): Promise<string> {
    const id = `p${randomBytes(6).toString('hex')}`;
    try {
      await this.#store.db
        .insertInto('promised_switch')
        .values({ ...row, id, host: this.#host, pid: process.pid })
        .execute();
    } catch (error) {
      throw new PlugboardError(
        'STORE',
        `Did not cycle ${row.controller_name} outlet ${row.outlet}: the lab store ${this.#store.where} does not take the record that would say the outlet is off until it is switched back on, so nothing was switched.`,
        undefined,
        { action: 'Try again once the lab store answers (the log says why it does not).', cause: error },
      );
    }
    return id;
  }

  async settle(id: string): Promise<void> {
    try {
      await this.#store.db.deleteFrom('promised_switch').where('id', '=', id).execute();
    } catch (error) {
      this.#log(
        "could not remove a delayed cycle's record from the lab store (the cycle ended; the next start may report its outlet as left off)",
        error,
      );
    }
  }

  standing(): Promise<PromisedSwitch[]> {
    return this.#store.db.selectFrom('promised_switch').selectAll().orderBy('asked_at').execute();
  }

  async forget(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#store.db.deleteFrom('promised_switch').where('id', 'in', ids).execute();
  }
}
