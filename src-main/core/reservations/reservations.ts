/**
 * Reservations: while one lasts, only its holder may switch what it covers. A Core with a lab store keeps
 * them there (reservation-book.ts), where every Core on the same store — the app, the web shell,
 * `plugboard serve`, a CLI command's own Core, services sharing one PostgreSQL — sees the same ones, and
 * the store decides between two that ask at once; the checks read the book's copy in memory. A Core
 * without one (tests, throwaway runs) keeps them in the settings file under `reservations`: each check
 * reads the file (conf re-reads it on every get), and every change is a read-modify-write under the
 * file's inter-process lock. Expired ones vanish by the Core's clock.
 *
 * Not the unit's `locked` flag: that is the controller's own (LOCKED) and means something else.
 */
import type { Actor, Reservation } from '../../../src-preload/model';
import { capitalise } from '../../../src-preload/words';
import type { CallParsed } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import type { TimerHandle } from '../kernel/clock';
import { sameJson } from '../kernel/same-json';
import {
  cellsOf,
  describeTarget,
  reasonText,
  reservedSentence,
  untilText,
  type Cell,
} from './reservation-words';
import {
  detailOf,
  newReservationId,
  readSettingsFile,
  RESERVATIONS_KEY,
  withoutController,
} from './reservation-records';
import { assertFree, checkTarget, findReservation, reservationEnd } from './reservation-checks';
import { keepReloading } from './reservation-reload';
import type { ReservationsOptions } from './reservation-options';

export { RESERVATIONS_KEY };

export { RESERVATIONS_RELOAD_MS } from './reservation-reload';
export type { ReservationsOptions } from './reservation-options';

type TakeInput = CallParsed<'reservations/take'>;

export class Reservations {
  readonly #o: ReservationsOptions;
  #queue: Promise<unknown> = Promise.resolve();
  #known: Reservation[] = [];
  #timer: TimerHandle | null = null;
  #reported = false;
  #migrating = false;
  /** Stops reading the lab store again (reservation-reload.ts); null without one. */
  #stopReloading: (() => void) | null = null;

  constructor(options: ReservationsOptions) {
    this.#o = options;
    // Follow what other Cores on the lab store take and end.
    if (options.book)
      this.#stopReloading = keepReloading(options.clock, options.log, () =>
        this.#exclusive(async () => {
          await this.#reload();
          this.refresh();
        }),
      );
    try {
      this.#known = this.list();
    } catch (error) {
      // Logged; every check reads the file again, and refuses while it cannot be read.
      this.#o.log('could not read the reservations', error);
    }
    this.#arm();
  }

  /** The current reservations (expired ones left out), soonest expiry first. */
  list(): Reservation[] {
    const now = this.#o.clock.now();
    return this.#read()
      .filter((r) => r.expiresAt > now)
      .sort((a, b) => a.expiresAt - b.expiresAt);
  }

  /**
   * Refuse (RESERVED) unless `actor` may switch these outlets of this controller ('all': every outlet):
   * nobody else holds a reservation covering any of them. The one check every switching path calls
   * before its request is queued.
   */
  assertMayAct(actor: Actor, controllerId: string, outlets: 'all' | readonly number[]): void {
    const wanted: Cell[] =
      outlets === 'all'
        ? [{ controllerId, outlet: null }]
        : outlets.map((outlet) => ({ controllerId, outlet }));
    try {
      this.#assertFree(actor, wanted);
    } catch (error) {
      if (error instanceof PlugboardError) this.#o.onRefused?.(actor, controllerId, outlets, error);
      throw error;
    }
  }

  take(actor: Actor, input: TakeInput): Promise<Reservation> {
    return this.#exclusive(async () => {
      const now = this.#o.clock.now();
      const expiresAt = reservationEnd(input, now);
      checkTarget(input.target, this.#o.groups(), this.#o.names);
      const groups = this.#o.groups();
      const cells = cellsOf(input.target, groups);
      if (cells.length === 0) throw new PlugboardError('BAD_INPUT', 'That group has no outlets to reserve.');
      await this.#reload();
      this.#assertFree(actor, cells);
      const current = this.list();
      const reservation: Reservation = {
        id: newReservationId(current),
        target: input.target,
        covers: cells,
        holder: actor.who,
        door: actor.door,
        reason: input.reason,
        createdAt: now,
        expiresAt,
      };
      const { book } = this.#o;
      if (book) {
        if (!(await book.add(reservation, now))) {
          // Another Core on the store took it first: said as it would have been, had it been seen.
          this.refresh();
          this.#assertFree(actor, cells);
          throw new PlugboardError(
            'RESERVED',
            'Someone else has just reserved what you asked for.',
            undefined,
            {
              action: 'List the reservations to see who holds it.',
            },
          );
        }
        this.refresh();
      } else this.#write([...current, reservation]);
      this.#o.onRecorded(
        actor,
        reservation,
        `reserved until ${untilText(expiresAt, now)}: ${reasonText(input.reason)}`,
      );
      return reservation;
    });
  }

  /** End the actor's own reservation. */
  release(actor: Actor, id: string): Promise<void> {
    return this.#exclusive(async () => {
      await this.#reload();
      const current = this.list();
      const found = findReservation(current, id);
      if (found.holder !== actor.who) {
        throw new PlugboardError(
          'RESERVED',
          `${reservedSentence(capitalise(describeTarget(found.target, this.#o.names)), found, this.#o.clock.now())} Only ${found.holder} can release it.`,
          detailOf(found),
          { action: 'Break the reservation with a reason instead (it is logged).' },
        );
      }
      await this.#remove(current, id);
      this.#o.onRecorded(actor, found, 'reservation released');
    });
  }

  /** End anyone's reservation, explicitly, with the reason logged as the breaker's. */
  break(actor: Actor, id: string, reason: string): Promise<void> {
    return this.#exclusive(async () => {
      await this.#reload();
      const current = this.list();
      const found = findReservation(current, id);
      await this.#remove(current, id);
      this.#o.onRecorded(actor, found, `broke the reservation of ${found.holder}: ${reasonText(reason)}`);
    });
  }

  /**
   * A controller is being removed (the caller passed `assertMayAct(actor, id, 'all')`: nobody else
   * holds any of it): what current reservations cover of it ends now, each recorded as broken by
   * `actor`. A reservation left covering nothing is gone; one of a group keeps its other outlets.
   * Call it while the controller is still saved, so the log can name it.
   */
  endForController(actor: Actor, controllerId: string): Promise<void> {
    return this.#exclusive(async () => {
      await this.#reload();
      const { kept, ended } = withoutController(this.list(), controllerId);
      if (ended.length === 0) return;
      if (this.#o.book) {
        await this.#o.book.endOnController(controllerId, this.#o.clock.now());
        this.refresh();
      } else this.#write(kept);
      const name = this.#o.names.controller(controllerId) ?? 'the controller';
      for (const part of ended)
        this.#o.onRecorded(
          actor,
          part,
          `broke the reservation of ${part.holder}: ${name} was removed from Plugboard.`,
        );
    });
  }

  /** Announce changes another process made to the file (call on every watch notice). */
  refresh(): void {
    let now: Reservation[];
    try {
      now = this.list();
    } catch (error) {
      this.#o.log('could not re-read the reservations', error);
      return;
    }
    if (!sameJson(now, this.#known)) {
      this.#known = now;
      this.#o.onChanged(structuredClone(now));
    }
    this.#arm();
  }

  dispose(): void {
    if (this.#timer) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#stopReloading?.();
    this.#stopReloading = null;
  }

  /** The lab store's reservations read again (nothing to do over the settings file: every read is). */
  async #reload(): Promise<void> {
    await this.#o.book?.reload(this.#o.clock.now());
  }

  async #remove(current: readonly Reservation[], id: string): Promise<void> {
    if (this.#o.book) {
      await this.#o.book.remove(id, this.#o.clock.now());
      this.refresh();
    } else this.#write(current.filter((r) => r.id !== id));
  }

  #assertFree(actor: Actor, wanted: readonly Cell[]): void {
    assertFree(actor, wanted, this.list(), this.#o.names, this.#o.clock.now());
  }

  #read(): Reservation[] {
    if (this.#o.book) return this.#o.book.current(this.#o.clock.now());
    const { list, migrated } = readSettingsFile(this.#o.store, this.#o.groups, this.#o.log, () => {
      if (this.#reported) return;
      this.#reported = true;
      this.#o.log('settings file: a saved reservation is invalid and was ignored');
    });
    if (migrated) this.#migrate();
    return list;
  }

  /**
   * Write reservations saved without what they cover back with it (as expanded on this read), once,
   * so a later change to their group does not change them.
   */
  #migrate(): void {
    if (this.#migrating) return;
    this.#migrating = true;
    this.#exclusive(async () => {
      const now = this.#o.clock.now();
      const current = this.#read().filter((r) => r.expiresAt > now);
      this.#o.store.set(RESERVATIONS_KEY, current);
    })
      .catch((error: unknown) => this.#o.log('could not save the reservations in their new form', error))
      .finally(() => (this.#migrating = false));
  }

  #write(list: Reservation[]): void {
    this.#o.store.set(RESERVATIONS_KEY, list);
    this.refresh();
  }

  /** Wake at the soonest expiry so the window hears that it ended (at most an hour ahead: a timer of more than 24.8 days would fire at once). */
  #arm(): void {
    if (this.#timer) this.#o.clock.clearTimeout(this.#timer);
    this.#timer = null;
    const next = this.#known[0];
    if (!next) return;
    this.#timer = this.#o.clock.setTimeout(
      () => {
        this.#timer = null;
        this.refresh();
      },
      Math.min(Math.max(0, next.expiresAt - this.#o.clock.now()) + 1, 3_600_000),
    );
    this.#timer.unref?.();
  }

  /** One change at a time in this process; over a shared file, also under its inter-process lock. */
  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const locked = () => (this.#o.store.exclusive && !this.#o.book ? this.#o.store.exclusive(task) : task());
    const run = this.#queue.then(locked, locked);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
