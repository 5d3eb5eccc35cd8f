/**
 * Which Core a command reaches. Every command runs through a Core: the machine's (saved controllers,
 * or a running service) when its controller is saved — named with --controller, or reached with --url
 * (or PLUGBOARD_URL) at a saved controller's address, so its reservations have one door (saved-route.ts)
 * — else a one-off Core in this process over the unit at --url (ephemeral.ts). Kept apart from
 * command-context.ts so that the lookup is loaded only by commands given --url or a one-off login.
 */
import type { ControllerSummary } from '../../src-preload/model';
import { savedThroughCore, throughCore, type CommandContext } from './command-context';
import type { CoreAccess } from './core-link';
import { UsageError } from './io';

/**
 * The context to run on the machine's Core (by the options alone when they say it: `throughCore`; an
 * address or a one-off login is looked up among the saved controllers), or null for a one-off Core.
 */
export async function routeToCore(context: CommandContext): Promise<CommandContext | null> {
  checkOneController(context);
  if (throughCore(context)) return context;
  const { savedRoute } = await import('./saved-route');
  return savedRoute(context);
}

/** The same for a command on one controller (`savedThroughCore`). */
export async function routeSavedToCore(context: CommandContext): Promise<CommandContext | null> {
  checkOneController(context);
  if (savedThroughCore(context)) return context;
  const { savedRoute } = await import('./saved-route');
  return (await savedRoute(context)) ?? (context.options.controller === undefined ? null : context);
}

function checkOneController(context: CommandContext): void {
  if (context.options.url !== undefined && context.options.controller !== undefined)
    throw new UsageError('Give either --url or --controller, not both.');
}

/** Run `work` on the command's one controller, through the Core that holds it; always closed after. */
export async function withTarget(
  context: CommandContext,
  work: (core: CoreAccess, controller: ControllerSummary) => Promise<void>,
): Promise<void> {
  const ephemeral = oneOffCoreSoon(context);
  const routed = await routeSavedToCore(context);
  if (routed) {
    const { withSavedController } = await import('./core-access');
    return withSavedController(routed, work);
  }
  const { withEphemeralController } = await (ephemeral ?? import('./ephemeral'));
  return withEphemeralController(context, work);
}

/**
 * A unit given by address is looked up among the saved controllers first; the one-off Core's code is
 * loaded meanwhile (either Core needs the same code), or null when the command names a saved one.
 */
export function oneOffCoreSoon(context: CommandContext): Promise<typeof import('./ephemeral')> | null {
  if (context.options.controller !== undefined) return null;
  const loading = import('./ephemeral');
  // Awaited by the caller when the lookup finds no saved controller; a failure shows there.
  loading.catch(() => undefined);
  return loading;
}
