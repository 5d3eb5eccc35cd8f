/**
 * The contract's controllers calls: the saved controllers, adding, changing and removing them, and their
 * secrets (the "password needed" prompt, where a secret lives).
 */
import type { ControllerSummary, Handlers } from '../../../src-preload/contract';
import { addController } from '../flows/controllers-add';
import { removeController } from '../flows/controllers-remove';
import { trustCertificate, updateController } from '../flows/controllers-update';
import { startedSession, type CoreContext } from '../flows/core-context';
import type { Actor } from '../../../src-preload/model';
import { addMany } from '../flows/controllers-bulk';
import { previewCsv } from '../flows/controllers-csv';
import { providePassword, secretWhere } from '../flows/credentials-provide';

type ControllerHandlers = Pick<
  Handlers,
  | 'controllers/list'
  | 'controllers/add'
  | 'controllers/update'
  | 'controllers/remove'
  | 'controllers/reorder'
  | 'controllers/refresh'
  | 'controllers/readAdmin'
  | 'controllers/trustCertificate'
  | 'controllers/addMany'
  | 'controllers/importPreview'
  | 'controllers/providePassword'
  | 'controllers/secretWhere'
>;

export function noteController(
  ctx: CoreContext,
  summary: ControllerSummary,
  action: string,
  actor: Actor,
): void {
  ctx.activity.add({
    controllerId: summary.id,
    controllerName: summary.name,
    outlet: null,
    action,
    actor,
    result: 'ok',
    error: null,
  });
}

export function controllerHandlers(ctx: CoreContext, actor: Actor): ControllerHandlers {
  return {
    'controllers/list': async () => ctx.registry.list(),
    'controllers/add': async (input) => {
      const summary = await addController(ctx, input);
      noteController(ctx, summary, 'added to Plugboard', actor);
      return summary;
    },
    'controllers/update': async (input) => updateController(ctx, input),
    'controllers/remove': async ({ id }) => {
      const summary = ctx.registry.getOrThrow(id);
      await removeController(ctx, id, actor);
      noteController(ctx, summary, 'removed from Plugboard', actor);
      return null;
    },
    'controllers/reorder': async ({ ids }) => ctx.registry.reorder(ids),
    'controllers/refresh': async ({ id }) => {
      await (await startedSession(ctx, id)).refresh();
      return null;
    },
    'controllers/readAdmin': async ({ id }) => {
      const session = await startedSession(ctx, id);
      await session.readAdminIfDue();
      return session.state;
    },
    'controllers/trustCertificate': async (input) => {
      const summary = await trustCertificate(ctx, input);
      noteController(ctx, summary, `accepted certificate ${input.fingerprint.slice(0, 11)}…`, actor);
      return summary;
    },
    // Bulk add and CSV import.
    'controllers/addMany': async (input) =>
      addMany(ctx, input, ({ added }) => added && noteController(ctx, added, 'added to Plugboard', actor)),
    'controllers/importPreview': async ({ text }) => previewCsv(ctx, text),
    'controllers/providePassword': (input) => providePassword(ctx, input),
    'controllers/secretWhere': ({ controllerId }) => secretWhere(ctx, controllerId),
  };
}
