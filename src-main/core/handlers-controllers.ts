/** The contract's app, controllers and demo calls. */
import type { ControllerSummary, Handlers } from '../../src-preload/contract';
import { addController, uniqueName } from './controllers-add';
import { removeController } from './controllers-remove';
import { trustCertificate, updateController } from './controllers-update';
import type { CoreContext } from './core-context';
import { startDemoEmulators } from './demo';
import type { Source } from './outlet-actions';

type ControllerHandlers = Pick<
  Handlers,
  | 'app/info'
  | 'app/snapshot'
  | 'controllers/list'
  | 'controllers/add'
  | 'controllers/update'
  | 'controllers/remove'
  | 'controllers/reorder'
  | 'controllers/refresh'
  | 'controllers/trustCertificate'
  | 'demo/start'
  | 'demo/remove'
>;

function noteController(ctx: CoreContext, summary: ControllerSummary, action: string, source: Source): void {
  ctx.activity.add({
    controllerId: summary.id,
    controllerName: summary.name,
    outlet: null,
    action,
    source,
    result: 'ok',
    error: null,
  });
}

export function controllerHandlers(ctx: CoreContext, source: Source): ControllerHandlers {
  return {
    'app/info': async () => ctx.info,
    'app/snapshot': async () => {
      const controllers = ctx.registry.list();
      return {
        info: ctx.info,
        controllers,
        states: controllers.map((c) => ctx.sessions.stateOf(c.id)),
        groups: ctx.registry.listGroups(),
        settings: ctx.settings.get(),
      };
    },
    'controllers/list': async () => ctx.registry.list(),
    'controllers/add': async (input) => {
      const summary = await addController(ctx, input);
      noteController(ctx, summary, 'added to Plugboard', source);
      return summary;
    },
    'controllers/update': async (input) => updateController(ctx, input),
    'controllers/remove': async ({ id }) => {
      const summary = ctx.registry.getOrThrow(id);
      await removeController(ctx, id);
      noteController(ctx, summary, 'removed from Plugboard', source);
      return null;
    },
    'controllers/reorder': async ({ ids }) => ctx.registry.reorder(ids),
    'controllers/refresh': async ({ id }) => {
      await ctx.started;
      await ctx.sessions.get(id).refresh();
      return null;
    },
    'controllers/trustCertificate': async (input) => {
      const summary = await trustCertificate(ctx, input);
      noteController(ctx, summary, `accepted certificate ${input.fingerprint.slice(0, 11)}…`, source);
      return summary;
    },
    'demo/start': async () => {
      const running = ctx.registry.list().filter((c) => c.demo && ctx.demos.has(c.id));
      if (running.length) return running;
      const demos = await startDemoEmulators();
      const added: ControllerSummary[] = [];
      try {
        for (const demo of demos) {
          const summary = await ctx.registry.add(
            {
              name: uniqueName(ctx, demo.spec.name),
              url: demo.emulator.url,
              auth: 'digest',
              user: 'admin',
              demo: true,
            },
            null,
          );
          ctx.demos.set(summary.id, demo);
          added.push(summary);
        }
      } catch (error) {
        for (const summary of added) await removeController(ctx, summary.id).catch(() => undefined);
        await Promise.all(demos.map((demo) => demo.emulator.close()));
        throw error;
      }
      for (const summary of added) {
        await ctx.sessions.start(summary);
        noteController(ctx, summary, 'demo controller added', source);
      }
      return added;
    },
    'demo/remove': async () => {
      for (const summary of ctx.registry.list().filter((c) => c.demo))
        await removeController(ctx, summary.id);
      const stray = [...ctx.demos.values()];
      ctx.demos.clear();
      await Promise.all(stray.map((demo) => demo.emulator.close()));
      return null;
    },
  };
}
