/**
 * `user edit` and `user delete`: change a user's outlets, administrator, allowed and password
 * in place; deleting the user Plugboard itself logs in as needs --yes (the Core refuses it otherwise).
 */
import type { Command } from 'commander';
import { accessFromNumbers } from '../dli/outlet-numbers';
import type { UserChange } from '../dli/types';
import { UsageError } from './io';
import { parseNumberList } from './outlet-spec';
import type { Runner } from './command-context';
import { withTarget } from './core-route';
import { leaf } from './global-options';

interface EditOptions {
  passwordStdin?: boolean;
  admin?: boolean;
  enabled?: boolean;
  outlets?: string;
}

/** What the command line asks to change (the password is read later, from standard input). */
function wanted(local: EditOptions): { outlets: number[] | null; change: Omit<UserChange, 'outletAccess'> } {
  const outlets = local.outlets === undefined ? null : parseNumberList(local.outlets, '--outlets');
  const change = {
    ...(local.admin === undefined ? {} : { isAdmin: local.admin }),
    ...(local.enabled === undefined ? {} : { isAllowed: local.enabled }),
  };
  if (outlets === null && Object.keys(change).length === 0 && !local.passwordStdin) {
    throw new UsageError(
      'user edit needs something to change: --outlets, --admin/--no-admin, --enabled/--disabled or --password-stdin.',
    );
  }
  return { outlets, change };
}

export function registerUserCommands(user: Command, run: Runner): void {
  leaf(
    user
      .command('edit')
      .argument('<name>', 'user name')
      .description("change a user's outlets, administrator, enabled and password")
      .option('--outlets <list>', 'outlets the user may switch, e.g. 1,2 (the others are refused)')
      .option('--admin', 'make the user an administrator')
      .option('--no-admin', 'make the user an ordinary user')
      .option('--enabled', 'let the user log in')
      .option('--disabled', 'stop the user from logging in')
      .option('--password-stdin', "read the user's new password from standard input")
      .option('--yes', 'also --disabled for the user Plugboard logs in as (Plugboard then loses its access)'),
    ['--password-stdin', '--password'],
  ).action(
    run(async (context, name) => {
      const local = context.local as EditOptions & { disabled?: boolean };
      if (local.disabled === true) {
        if (local.enabled === true) throw new UsageError('Give either --enabled or --disabled, not both.');
        local.enabled = false;
      }
      const { outlets, change } = wanted(local);
      const who = String(name);
      const globals = context.globals;
      const asLogin = { ...context, options: { ...context.options, passwordStdin: globals.passwordStdin } };
      const password = async (): Promise<string | undefined> => {
        if (!local.passwordStdin) return undefined;
        const typed = await context.terminal.readLine(`the new password for ${who}`);
        if (!typed) throw new UsageError('The new password is empty.');
        return typed;
      };
      const done = (where: string, warning: string | null): void => {
        if (context.json) return context.terminal.json({ changed: who, warning });
        context.terminal.print(`Changed user ${who} on ${where}.`);
        if (warning) context.terminal.warn(warning);
      };
      const { readState } = await import('./state-watch');
      await withTarget(asLogin, async (core, saved) => {
        const count = outlets ? (await readState(core, saved.id, saved.name)).outlets.length : 0;
        const newPassword = await password();
        const answer = await core.call('users/update', {
          controllerId: saved.id,
          name: who,
          confirmOwnUser: context.local.yes === true,
          ...change,
          ...(outlets ? { outletAccess: accessFromNumbers(outlets, count, saved.name) } : {}),
          ...(newPassword === undefined ? {} : { password: newPassword }),
        });
        done(saved.name, answer.warning);
      });
    }),
  );

  leaf(
    user
      .command('delete')
      .argument('<name>', 'user name')
      .option('--yes', 'also when it is the user Plugboard logs in as (Plugboard then loses its access)')
      .description('delete a user'),
  ).action(
    run(async (context, name) => {
      const who = String(name);
      const yes = context.local.yes === true;
      await withTarget(context, async (core, saved) => {
        await core.call('users/delete', { controllerId: saved.id, name: who, confirmOwnUser: yes });
        if (context.json) return context.terminal.json({ deleted: who });
        context.terminal.print(`Deleted user ${who} on ${saved.name}.`);
      });
    }),
  );
}
