/** Removing a saved controller. */
import type { CoreContext } from './core-context';

/** Forget a controller: its session, its secret, its outlets in groups and settings, its demo emulator. */
export async function removeController(ctx: CoreContext, id: string): Promise<void> {
  ctx.registry.getOrThrow(id);
  await ctx.sessions.stop(id);
  await ctx.registry.remove(id);
  await ctx.settings.forgetController(id);
  const demo = ctx.demos.get(id);
  ctx.demos.delete(id);
  await demo?.emulator.close();
}
