/** Removing a saved controller. */
import type { Actor } from '../../../src-preload/model';
import type { CoreContext } from './core-context';

/**
 * Forget a controller: its session, its secret, its outlets in groups and settings, its demo emulator.
 * Refused (RESERVED) while someone else holds a reservation on any of its outlets: removing it (and
 * adding it back under a new id) must not free what they reserved. The remover's own reservations on
 * it end, each recorded as broken, so none is left listed covering nothing.
 */
export async function removeController(ctx: CoreContext, id: string, actor: Actor): Promise<void> {
  ctx.registry.getOrThrow(id);
  ctx.reservations.assertMayAct(actor, id, 'all');
  await ctx.reservations.endForController(actor, id);
  await ctx.sessions.stop(id);
  await ctx.registry.remove(id);
  await ctx.settings.forgetController(id);
  const demo = ctx.demos.get(id);
  ctx.demos.delete(id);
  await demo?.emulator.close();
}
