/*
 * The Core's handler sets: every domain's handlers bound to the context, for one caller at a time, each
 * behind the role and scope check (permissions.ts) and answered once what it recorded is kept. One set
 * per caller, kept, so a door's repeated calls build nothing.
 */
import type { Handlers } from '../../../src-preload/contract';
import type { ActivityDoor, Actor, Caller } from '../../../src-preload/model';
import { answeringWhenKept } from '../activity/activity-answers';
import { RefusalBudget } from '../activity/activity-refusal-budget';
import type { Leadership } from '../database/leadership';
import type { Fleet } from '../fleet/fleet-wiring';
import type { CoreContext } from '../flows/core-context';
import { accountHandlers } from './accounts';
import { activityHandlers } from './activity';
import { appHandlers } from './app';
import { autopingHandlers } from './autoping';
import { controllerHandlers } from './controllers';
import { demoHandlers } from './demo';
import { discoveryHandlers } from './discovery';
import { fleetHandlers } from './fleet';
import { groupHandlers } from './groups';
import { labHandlers } from './labs';
import { meterHandlers } from './meters';
import { outletHandlers } from './outlets';
import { permissionFacts, permittedHandlers } from './permissions';
import { reservationHandlers } from './reservations';
import { scriptHandlers } from './scripts';
import { sequenceHandlers } from './sequences';
import { settingsHandlers } from './settings';
import { systemHandlers } from './system';
import { userHandlers } from './users';

/**
 * The handlers for a caller, built on first use and kept. A door alone (`'tray'`, `'web'`) is `user` (this
 * OS user) at that door, as an administrator. Under a `leadership`, a change is refused while another
 * service leads.
 */
export function handlerSets(
  ctx: CoreContext,
  fleet: Fleet,
  user: string,
  leadership: Leadership | null,
): (caller: Caller | ActivityDoor) => Handlers {
  const { activity, clock, log } = ctx;
  /** `actor` is all a handler records; `caller` (with its role and scope) only tells who it is. */
  const handlersFor = (actor: Actor, caller: Caller): Handlers => ({
    ...appHandlers(ctx, caller),
    ...controllerHandlers(ctx, actor),
    ...demoHandlers(ctx, actor),
    ...outletHandlers(ctx, actor),
    ...scriptHandlers(ctx, actor),
    ...userHandlers(ctx, actor),
    ...autopingHandlers(ctx, actor),
    ...systemHandlers(ctx, actor),
    ...meterHandlers(ctx),
    ...groupHandlers(ctx, actor),
    ...sequenceHandlers(ctx, actor),
    ...activityHandlers(ctx),
    ...settingsHandlers(ctx),
    ...discoveryHandlers(ctx),
    ...reservationHandlers(ctx, actor),
    ...accountHandlers(ctx, actor),
    ...fleetHandlers(ctx, fleet),
    ...labHandlers(),
  });
  const facts = permissionFacts(ctx);
  // Calls the role or scope refused, in the log as attempts: counted, and bounded per client.
  const refused = new RefusalBudget({ activity, clock });
  const byCaller = new Map<string, Handlers>();
  return (caller: Caller | ActivityDoor): Handlers => {
    const resolved: Caller = typeof caller === 'string' ? { door: caller, who: user, role: 'admin' } : caller;
    // The scope is part of whom the handlers act for: an account given another scope gets new ones.
    const key = [
      resolved.door,
      resolved.who,
      resolved.role,
      resolved.credential ?? '',
      JSON.stringify(resolved.scope ?? null),
    ].join('\u0000');
    let handlers = byCaller.get(key);
    if (!handlers) {
      const frozen: Caller = Object.freeze({ ...resolved });
      // The handlers record only who and through which door: the role stays with the check.
      // Answered once what the call recorded is kept (activity-answers.ts), whatever the door.
      handlers = answeringWhenKept(
        permittedHandlers(
          handlersFor(Object.freeze({ door: frozen.door, who: frozen.who }), frozen),
          frozen,
          facts,
          leadership ? () => leadership.assertMayWrite() : undefined,
          (entry) => refused.refused(entry),
        ),
        activity,
        log,
      );
      byCaller.set(key, handlers);
    }
    return handlers;
  };
}
