/** `users`, `user add` (`user edit`, `user delete`: commands-users.ts), `ssh`, `reboot`, `tree`. */
import type { Command } from 'commander';
import { PlugboardError } from '../shared/errors';
import { accessFromNumbers, numbersFromAccess } from '../dli/outlet-numbers';
import { UsageError } from './io';
import { parseNumberList } from './outlet-spec';
import type { Runner } from './command-context';
import { withTarget } from './core-route';
import { leaf } from './global-options';
import { REBOOT_WAIT_S, timeoutMs } from './commands-fleet';
import { renderTable } from './table';
import { registerUserCommands } from './commands-users';

export function registerAdminCommands(program: Command, run: Runner): void {
  leaf(program.command('users').description('users on the controller (admin only)')).action(
    run(async (context) => {
      const { withAdminState, adminRead } = await import('./admin-reads');
      await withAdminState(context, async (controller, state) => {
        const users = adminRead(controller, state, state.users, 'the users');
        const rows = users.map((u) => ({
          name: u.name,
          is_admin: u.isAdmin,
          is_allowed: u.isAllowed,
          outlet_access: numbersFromAccess(u.outletAccess),
        }));
        if (context.json) return context.terminal.json(rows);
        const c = context.terminal.colors;
        context.terminal.print(
          renderTable(
            rows,
            [
              { title: 'NAME', value: (u) => u.name },
              { title: 'ADMIN', value: (u) => (u.is_admin ? 'yes' : 'no') },
              { title: 'ENABLED', value: (u) => (u.is_allowed ? 'yes' : 'no') },
              { title: 'OUTLETS', value: (u) => (u.outlet_access.length ? u.outlet_access.join(',') : '-') },
            ],
            c.bold,
          ),
        );
      });
    }),
  );

  const user = program
    .command('user')
    .description('add, edit or delete a user on the controller (admin only)');
  // The new user's password comes only from standard input: never from the command line.
  leaf(
    user
      .command('add')
      .argument('<name>', 'user name')
      .option('--password-stdin', "read the new user's password from standard input (required)")
      .option('--admin', 'make the user an administrator')
      .option('--disabled', 'create the user without access for now')
      .option('--outlets <list>', 'outlets the user may switch, e.g. 1,2 (default: all)'),
    ['--password-stdin', '--password'],
  ).action(
    run(async (context, name) => {
      const local = context.local as {
        passwordStdin?: boolean;
        admin?: boolean;
        disabled?: boolean;
        outlets?: string;
      };
      if (!local.passwordStdin) {
        throw new UsageError(
          "user add needs --password-stdin: the new user's password is read from standard input.",
        );
      }
      const outlets = local.outlets === undefined ? null : parseNumberList(local.outlets, '--outlets');
      const globals = context.globals;
      // --password-stdin after `add` is the new user's; before it, the login's.
      const asLogin = { ...context, options: { ...context.options, passwordStdin: globals.passwordStdin } };
      const { readState } = await import('./state-watch');
      await withTarget(asLogin, async (core, saved) => {
        const password = await context.terminal.readLine(`the password for ${String(name)}`);
        if (!password) throw new UsageError('The new password is empty.');
        const count = (await readState(core, saved.id, saved.name)).outlets.length;
        await core.call('users/create', {
          controllerId: saved.id,
          name: String(name),
          password,
          isAdmin: local.admin === true,
          isAllowed: local.disabled !== true,
          outletAccess:
            outlets === null
              ? new Array<boolean>(count).fill(true)
              : accessFromNumbers(outlets, count, saved.name),
        });
        if (context.json) return context.terminal.json({ created: String(name) });
        context.terminal.print(`Created user ${String(name)} on ${saved.name}.`);
      });
    }),
  );
  registerUserCommands(user, run);

  leaf(
    program
      .command('ssh')
      .argument('[state]', 'on or off; without it, show the setting')
      .description('enable or disable SSH'),
  ).action(
    run(async (context, state) => {
      const wanted = state === undefined ? null : String(state).toLowerCase();
      if (wanted !== null && wanted !== 'on' && wanted !== 'off')
        throw new UsageError('ssh takes on or off.');
      if (wanted !== null) {
        return withTarget(context, async (core, saved) => {
          await core.call('system/setSsh', { controllerId: saved.id, enabled: wanted === 'on' });
          if (context.json) return context.terminal.json({ ssh_enabled: wanted === 'on' });
          context.terminal.print(`SSH is ${wanted === 'on' ? 'enabled' : 'disabled'} on ${saved.name}.`);
        });
      }
      const { withAdminState, adminRead } = await import('./admin-reads');
      await withAdminState(context, async (controller, state) => {
        const enabled = adminRead(controller, state, state.sshEnabled, 'the SSH setting');
        if (context.json) return context.terminal.json({ ssh_enabled: enabled });
        context.terminal.print(`SSH is ${enabled ? 'enabled' : 'disabled'} on ${controller.name}.`);
      });
    }),
  );

  leaf(
    program
      .command('reboot')
      .option('--yes', 'really reboot (every transient state reverts)')
      .option('--wait', 'return once the unit answers again (exit 3 if not in time)')
      .option(
        '--timeout <seconds>',
        `how long --wait waits for the unit to answer again (default ${REBOOT_WAIT_S})`,
      )
      .description('reboot the controller (firmware 1.11.6.0 or newer)'),
  ).action(
    run(async (context) => {
      if (context.options.yes !== true) {
        throw new UsageError(
          'Rebooting makes every outlet return to its persistent state; add --yes to go ahead.',
        );
      }
      const wait = context.options.wait === true ? timeoutMs(context, REBOOT_WAIT_S) : null;
      const { rebootAndWait } = await import('./reboot-wait');
      await withTarget(context, async (core, saved) => {
        const back = await rebootAndWait(core, saved, wait);
        if (context.json)
          return context.terminal.json(
            back === null ? { rebooting: true } : { rebooted: true, back_after_ms: back },
          );
        if (back === null) return context.terminal.print(`${saved.name} is rebooting.`);
        context.terminal.print(
          `${saved.name} rebooted and answers again (after ${Math.round(back / 1000)} s).`,
        );
      });
    }),
  );

  leaf(
    program
      .command('tree')
      .argument('[path]', 'path below /restapi/, e.g. relay/outlets/0', '')
      .option('--depth <n>', 'how many levels to expand (1-8)', '1')
      .description('browse the API tree'),
  ).action(
    run(async (context, path) => {
      const depth = Number(context.options.depth);
      if (!Number.isInteger(depth) || depth < 1 || depth > 8)
        throw new UsageError('--depth must be a whole number from 1 to 8.');
      if (/[?#]/.test(String(path)))
        throw new UsageError(
          'A tree path may not contain ? or #: give a path below /restapi/, like relay/outlets/0.',
        );
      await withTarget(context, async (core, controller) => {
        const read = await core.call('system/tree', {
          controllerId: controller.id,
          path: String(path),
          depth,
        });
        if (read.value === undefined)
          throw new PlugboardError('DEVICE_ERROR', `${controller.name} sent an empty tree.`);
        context.terminal.json(read.value);
      });
    }),
  );
}
