/**
 * Where a command goes that can switch outlets (or give them to a unit user or to AutoPing): the
 * context to run on the Core path, or null for straight to the unit. Kept apart from command-context.ts
 * so that the lookup (saved-route.ts) is loaded only by commands given --url or a one-off login.
 */
import { savedThroughCore, throughCore, type CommandContext } from './command-context';

/**
 * By the options alone when they say it (`throughCore`); a one-off login or an address is looked up
 * among the saved controllers, and a saved one goes through the Core too, so its reservations have one
 * door (saved-route.ts).
 */
export async function routeToCore(context: CommandContext): Promise<CommandContext | null> {
  if (throughCore(context)) return context;
  const { savedRoute } = await import('./saved-route');
  return savedRoute(context);
}

/** The same for a command on one controller (`savedThroughCore`). */
export async function routeSavedToCore(context: CommandContext): Promise<CommandContext | null> {
  if (savedThroughCore(context)) return context;
  const { savedRoute } = await import('./saved-route');
  return savedRoute(context);
}
