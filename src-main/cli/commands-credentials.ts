/**
 * `plugboard password USER --password-stdin`: give the password of USER to every saved
 * controller that needs it (no keychain, a locked one, or its entry is gone), or only to --controller
 * NAME. Through a running `plugboard serve` it reaches the service's Core, which then polls them again.
 */
import type { Command } from 'commander';
import { PlugboardError } from '../shared/errors';
import { UsageError } from './io';
import type { Runner } from './command-context';
import { leaf } from './global-options';

export function registerCredentialCommands(program: Command, run: Runner): void {
  leaf(
    program
      .command('password')
      .argument('<user>', 'the user the controllers log in as')
      .description('give the password of USER to every saved controller that needs it (checked first)')
      .option('--password-stdin', 'read the password from standard input (required)')
      .option('--no-remember', 'keep it only while this Plugboard runs, not in the keychain'),
    ['--password-stdin', '--password'],
  ).action(
    run(async (context, user) => {
      const local = context.local as { passwordStdin?: boolean; remember?: boolean };
      if (!local.passwordStdin) {
        throw new UsageError('password needs --password-stdin: the password is read from standard input.');
      }
      const { withCore } = await import('./core-access');
      await withCore(
        { ...context, options: { ...context.options, passwordStdin: context.globals.passwordStdin } },
        async (core) => {
          let ids: string[] | undefined;
          if (context.options.controller !== undefined) {
            const typed = String(context.options.controller);
            const saved = (await core.call('controllers/list', {})).find(
              (c) => c.name.toLowerCase() === typed.trim().toLowerCase() || c.id === typed,
            );
            if (!saved)
              throw new PlugboardError('NOT_FOUND', `No saved controller is called "${typed.slice(0, 40)}".`);
            ids = [saved.id];
          }
          const password = await context.terminal.readLine(`the password for ${String(user)}`);
          if (!password) throw new UsageError('The password is empty.');
          const { results } = await core.call('controllers/providePassword', {
            user: String(user),
            password,
            remember: local.remember !== false,
            ...(ids ? { ids } : {}),
          });
          if (context.json) context.terminal.json(results);
          else
            for (const r of results)
              context.terminal.print(
                `${r.ok ? 'Connected' : 'Still needs it:'} ${r.name}${r.message ? `: ${r.message}` : ''}`,
              );
          const failed = results.filter((r) => !r.ok).length;
          if (failed > 0) {
            throw new PlugboardError(
              'AUTH_FAILED',
              `${failed} of ${results.length} controllers still need the password of ${String(user)}.`,
            );
          }
        },
      );
    }),
  );
}
