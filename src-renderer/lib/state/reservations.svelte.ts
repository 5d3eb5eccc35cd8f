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
   * The reservation covering an outlet, someone else's first; `outlet` null: one covering the whole
   * controller (a reserved outlet does not make the whole controller reserved).
   * What one covers was fixed when it was taken (`covers`): a group's members then, as the Core checks.
   */
  covering(controllerId: string, outlet: number | null): Reservation | null {
    const found = this.list.filter((r) =>
      r.covers.some(
        (c) =>
          c.controllerId === controllerId && (c.outlet === null || (outlet !== null && c.outlet === outlet)),
      ),
    );
    return found.find((r) => !this.mine(r)) ?? found[0] ?? null;
  }

  /** Reservations of some outlets of a controller (not the whole of it), each with the outlets it covers. */
  partial(controllerId: string): { reservation: Reservation; outlets: number[] }[] {
    return this.list.flatMap((reservation) => {
      const cells = reservation.covers.filter((c) => c.controllerId === controllerId);
      if (cells.length === 0 || cells.some((c) => c.outlet === null)) return [];
      return [{ reservation, outlets: cells.map((c) => c.outlet!).sort((a, b) => a - b) }];
    });
  }

  /** "Outlet 3 (Router) reserved by alice until 14:30: flashing firmware" — what, by whom, why. */
  outletWords(reservation: Reservation, outlets: string[]): string {
    const what = outlets.length === 1 ? outlets[0]! : outlets.join(', ');
    const by = this.mine(reservation) ? 'you' : reservation.holder;
    return `${what.charAt(0).toUpperCase()}${what.slice(1)} reserved by ${by} until ${untilWords(reservation.expiresAt)}: ${reservation.reason}`;
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
