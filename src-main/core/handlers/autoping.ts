/**
 * The contract's AutoPing calls: list, save (create or replace) and remove items on
 * a controller. Every change is recorded in the activity log, named by item and addresses.
 */
import type { Handlers } from '../../../src-preload/contract';
import type { AutopingItemInput } from '../../../src-preload/model';
import { startedSession, type CoreContext } from '../flows/core-context';
import { recorded } from '../actions/admin-actions';
import { cycledByAutoping, grantsNothing } from '../reservations/reservation-grants';
import type { Actor } from '../../../src-preload/model';

type AutopingHandlers = Pick<Handlers, 'autoping/list' | 'autoping/save' | 'autoping/remove'>;

const interactive = { priority: 'interactive' } as const;

function described(item: AutopingItemInput): string {
  const outlets = item.outlets.length ? ` (outlets ${item.outlets.join(', ')})` : '';
  return `${item.addresses.join(', ')}${outlets}`;
}

export function autopingHandlers(ctx: CoreContext, actor: Actor): AutopingHandlers {
  return {
    'autoping/list': async ({ controllerId }) => {
      const client = await (await startedSession(ctx, controllerId)).client();
      return client.autoping.list(interactive);
    },
    'autoping/save': async ({ controllerId, number, item }) => {
      const session = await startedSession(ctx, controllerId);
      // An enabled item power-cycles its outlets on its own later: checked now like a cycle of them.
      const cycled = cycledByAutoping(item);
      if (!grantsNothing(cycled)) ctx.reservations.assertMayAct(actor, controllerId, cycled);
      const client = await session.client();
      if (number === undefined) {
        return recorded(session, `added AutoPing item for ${described(item)}`, actor, () =>
          client.autoping.create(item, interactive),
        );
      }
      return recorded(
        session,
        `changed AutoPing item ${number} to ${described(item)}${item.enabled ? '' : ', disabled'}`,
        actor,
        () => client.autoping.edit(number, item, interactive),
      );
    },
    'autoping/remove': async ({ controllerId, number }) => {
      const session = await startedSession(ctx, controllerId);
      const client = await session.client();
      return recorded(session, `deleted AutoPing item ${number}`, actor, () =>
        client.autoping.remove(number, interactive),
      );
    },
  };
}
