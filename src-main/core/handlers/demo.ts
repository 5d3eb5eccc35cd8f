/** The contract's demo calls: start software controllers to try Plugboard with, and remove them. */
import type { ControllerSummary, Handlers } from '../../../src-preload/contract';
import { uniqueName } from '../flows/controllers-add';
import { removeController } from '../flows/controllers-remove';
import type { CoreContext } from '../flows/core-context';
import { startDemoEmulators } from '../flows/demo';
import { noteController } from './controllers';
import type { Actor } from '../../../src-preload/model';

type DemoHandlers = Pick<Handlers, 'demo/start' | 'demo/remove'>;

export function demoHandlers(ctx: CoreContext, actor: Actor): DemoHandlers {
  return {
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
        for (const summary of added) await removeController(ctx, summary.id, actor).catch(() => undefined);
        await Promise.all(demos.map((demo) => demo.emulator.close()));
        throw error;
      }
      for (const summary of added) {
        await ctx.sessions.start(summary);
        noteController(ctx, summary, 'demo controller added', actor);
      }
      return added;
    },
    'demo/remove': async () => {
      for (const summary of ctx.registry.list().filter((c) => c.demo))
        await removeController(ctx, summary.id, actor);
      const stray = [...ctx.demos.values()];
      ctx.demos.clear();
      await Promise.all(stray.map((demo) => demo.emulator.close()));
      return null;
    },
  };
}
