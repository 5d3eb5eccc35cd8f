/**
 * A bound on the refusals one client gets listed: the activity log counts the same refusal within a
 * minute into one entry, but a client hammering different refused calls (every outlet of every unit)
 * would still add an entry for each. Each client (door and who) gets entries for at most `perClient`
 * different refusals a minute; past that, the rest are counted into one entry about the lab service.
 */
import type { Actor } from '../../../src-preload/model';
import type { Clock } from '../kernel/clock';
import { refusalKey } from './activity-refusals';
import { LAB_SERVICE, type NewActivity } from './activity-types';

export interface RefusalBudgetOptions {
  activity: { refused(input: NewActivity): unknown };
  clock: Clock;
  /** Different refusals one client gets entries for within a window (default 20). */
  perClient?: number;
  /** The window, ms (default a minute, as the activity log counts repeats). */
  windowMs?: number;
}

/** A client's window: when it began and the refusals it has entries for. */
interface Window {
  since: number;
  keys: Set<string>;
}

/** Windows kept before the ended ones are swept (clients are accounts, tokens and client addresses). */
const SWEEP_ABOVE = 256;

export class RefusalBudget {
  readonly #options: RefusalBudgetOptions;
  readonly #windows = new Map<string, Window>();

  constructor(options: RefusalBudgetOptions) {
    this.#options = options;
  }

  /** Record `entry` as a refusal, or count it into its client's "more refusals" entry past the budget. */
  refused(entry: NewActivity): void {
    if (this.#within(entry.actor, refusalKey(entry))) {
      this.#options.activity.refused(entry);
      return;
    }
    const limit = this.#limit;
    this.#options.activity.refused({
      ...LAB_SERVICE,
      action: `more than ${limit} different refusals within a minute`,
      actor: entry.actor,
      result: 'error',
      error: {
        code: entry.error?.code ?? 'FORBIDDEN',
        message: `${entry.actor.who} was refused more than ${limit} different things within a minute: the others are counted here, not each listed.`,
      },
    });
  }

  get #limit(): number {
    return this.#options.perClient ?? 20;
  }

  /** Whether `key` has, or may still get, an entry of its own in the client's window. */
  #within(actor: Actor, key: string): boolean {
    const now = this.#options.clock.now();
    const span = this.#options.windowMs ?? 60_000;
    const client = `${actor.door}\u0000${actor.who}`;
    let window = this.#windows.get(client);
    if (!window || now - window.since >= span || now < window.since) {
      if (this.#windows.size > SWEEP_ABOVE)
        for (const [other, old] of this.#windows) if (now - old.since >= span) this.#windows.delete(other);
      window = { since: now, keys: new Set() };
      this.#windows.set(client, window);
    }
    if (window.keys.has(key)) return true;
    if (window.keys.size >= this.#limit) return false;
    window.keys.add(key);
    return true;
  }
}
