/** The contract's reservation calls: list, take, release and break. */
import type { Handlers } from '../../../src-preload/contract';
import type { Actor } from '../../../src-preload/model';
import type { CoreContext } from '../flows/core-context';

type ReservationHandlers = Pick<
  Handlers,
  | 'reservations/list'
  | 'reservations/take'
  | 'reservations/release'
  | 'reservations/holder'
  | 'reservations/break'
>;

export function reservationHandlers(ctx: CoreContext, actor: Actor): ReservationHandlers {
  return {
    'reservations/list': async () => ctx.reservations.list(),
    'reservations/take': async (input) => ctx.reservations.take(actor, input),
    'reservations/release': async ({ id }) => {
      await ctx.reservations.release(actor, id);
      return null;
    },
    'reservations/holder': async () => ({ holder: actor.who }),
    'reservations/break': async ({ id, reason }) => {
      await ctx.reservations.break(actor, id, reason);
      return null;
    },
  };
}
