import type { Reservation, ReservationTarget, Result } from '../../../src-preload/contract';
import { settle, type Backend } from '../backend';
import { untilWords } from '../format';

/**
 * The window's view of the reservations: every current one, kept current by
 * `reservations/changed`, and who the window holds them as, so its own are told from others'.
 * The Core refuses what someone else reserved; the window shows why before anyone clicks.
 */
export class ReservationsState {
  list = $state.raw<Reservation[]>([]);
  /** Who this window's reservations are held as; null until known. */
  holder = $state<string | null>(null);

  readonly #api: Backend;

  constructor(api: Backend) {
    this.#api = api;
  }

  /** Listen and load; returns the function that stops listening. */
  start(): () => void {
    const off = this.#api.on('reservations/changed', (list) => (this.list = list));
    void this.load();
    return off;
  }

  async load(): Promise<void> {
    const [list, holder] = await Promise.all([
      settle(this.#api.reservations.list({})),
      settle(this.#api.reservations.holder({})),
    ]);
    if (list.ok) this.list = list.value;
    if (holder.ok) this.holder = holder.value.holder;
  }

  mine(reservation: Reservation): boolean {
    return reservation.holder === this.holder;
  }

  /**
   * The reservation covering an outlet (`outlet` null: the whole controller), someone else's first.
   * What one covers was fixed when it was taken (`covers`): a group's members then, as the Core checks.
   */
  covering(controllerId: string, outlet: number | null): Reservation | null {
    const found = this.list.filter((r) =>
      r.covers.some(
        (c) =>
          c.controllerId === controllerId && (outlet === null || c.outlet === null || c.outlet === outlet),
      ),
    );
    return found.find((r) => !this.mine(r)) ?? found[0] ?? null;
  }

  /** "Reserved by alice until 14:30: flashing firmware" (or "by you"). */
  words(reservation: Reservation): string {
    const by = this.mine(reservation) ? 'you' : reservation.holder;
    return `Reserved by ${by} until ${untilWords(reservation.expiresAt)}: ${reservation.reason}`;
  }

  /** Why this outlet cannot be switched from this window, or null: someone else reserved it. */
  blockFor(controllerId: string, outlet: number): string | null {
    const r = this.covering(controllerId, outlet);
    return r && !this.mine(r) ? `${this.words(r)}. Ask ${r.holder}, or break the reservation.` : null;
  }

  async take(target: ReservationTarget, reason: string, durationMs: number): Promise<Result<Reservation>> {
    const result = await settle(this.#api.reservations.take({ target, reason, durationMs }));
    if (result.ok) this.list = [...this.list.filter((r) => r.id !== result.value.id), result.value];
    return result;
  }

  async release(id: string): Promise<Result<null>> {
    const result = await settle(this.#api.reservations.release({ id }));
    if (result.ok) this.list = this.list.filter((r) => r.id !== id);
    return result;
  }

  async breakIt(id: string, reason: string): Promise<Result<null>> {
    const result = await settle(this.#api.reservations.break({ id, reason }));
    if (result.ok) this.list = this.list.filter((r) => r.id !== id);
    return result;
  }
}
