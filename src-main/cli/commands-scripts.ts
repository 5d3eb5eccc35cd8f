/** `scripts`, `script start`, `script stop`. */
import type { Command } from 'commander';
import type { Runner } from './command-context';
import { withTarget } from './core-route';
import { parseScriptArgs } from './script-args';
import { leaf } from './global-options';
import { renderTable } from './table';

export function registerScriptCommands(program: Command, run: Runner): void {
  leaf(
    program.command('scripts').description('user functions and running script threads (admin only)'),
  ).action(
    run(async (context) => {
      const { withAdminState, adminRead } = await import('./admin-reads');
      await withAdminState(context, async (controller, state) => {
        const scripts = adminRead(controller, state, state.scripts, 'the scripts');
        if (context.json) return context.terminal.json(scripts);
        const c = context.terminal.colors;
        const lines = [
          c.bold('Functions'),
          ...(scripts.functions.length ? scripts.functions.map((f) => `  ${f}`) : ['  (none)']),
        ];
        lines.push('', c.bold('Running threads'));
        if (scripts.threads.length) {
          const table = renderTable(
            scripts.threads,
            [
              { title: 'ID', value: (t) => t.id, align: 'right' },
              { title: 'LABEL', value: (t) => t.label },
            ],
            (s) => s,
          );
          lines.push(...table.split('\n').map((line) => `  ${line}`));
        } else {
          lines.push('  (none)');
        }
        context.terminal.print(lines.join('\n'));
      });
    }),
  );

  const script = program.command('script').description('start or stop scripts (admin only)');
  leaf(
    script
      .command('start')
      .argument('<function>', 'user function name')
      .option('--args <values>', 'arguments, comma-separated: numbers, true/false, or text (e.g. 5,10)')
      .description('start a user function; arguments are passed as values, never as code'),
  ).action(
    run(async (context, functionName) => {
      const args = parseScriptArgs(context.options.args as string | undefined);
      await withTarget(context, async (core, saved) => {
        const { threadId } = await core.call('scripts/start', {
          controllerId: saved.id,
          function: String(functionName),
          args,
        });
        if (context.json) return context.terminal.json({ thread_id: threadId });
        context.terminal.print(`Started ${String(functionName)} on ${saved.name} as thread ${threadId}.`);
      });
    }),
  );
  leaf(
    script
      .command('stop')
      .argument('<thread>', 'thread id (see: scripts), or all')
      .description('stop one running script thread, or all of them'),
  ).action(
    run(async (context, thread) => {
      const id = String(thread);
      await withTarget(context, async (core, saved) => {
        await core.call('scripts/stop', { controllerId: saved.id, threads: id === 'all' ? 'all' : [id] });
        if (context.json) return context.terminal.json({ stopped: id });
        context.terminal.print(
          id === 'all' ? `Stopped all scripts on ${saved.name}.` : `Stopped thread ${id} on ${saved.name}.`,
        );
      });
    }),
  );
}
