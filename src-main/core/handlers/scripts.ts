/** The contract's script calls: start a user function, stop running threads. */
import type { Handlers } from '../../../src-preload/contract';
import { startScript, stopScripts } from '../actions/admin-actions';
import { startedSession, type CoreContext } from '../flows/core-context';
import type { Actor } from '../../../src-preload/model';

type ScriptHandlers = Pick<Handlers, 'scripts/start' | 'scripts/stop'>;

export function scriptHandlers(ctx: CoreContext, actor: Actor): ScriptHandlers {
  return {
    'scripts/start': async ({ controllerId, function: name, args }) => {
      // A script may switch any outlet: refused while someone else reserves any of the controller.
      ctx.reservations.assertMayAct(actor, controllerId, 'all');
      const started = await startScript(await startedSession(ctx, controllerId), name, args, actor);
      ctx.activity.scriptStarted(controllerId, started.threadId, name, actor);
      return started;
    },
    'scripts/stop': async ({ controllerId, threads }) => {
      await stopScripts(await startedSession(ctx, controllerId), threads, actor);
      return null;
    },
  };
}
