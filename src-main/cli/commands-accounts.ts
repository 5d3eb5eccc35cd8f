/**
 * `plugboard accounts …`: the people (and machine clients) who sign in to a lab service, through the
 * Core's account calls (an administrator's), so they work on the config folder's Core, through the
 * service's own Core socket on its machine, and through a running service with --service:
 *
 *   accounts list
 *   accounts add NAME --role R [--display TEXT] [--tags a,b] [--controllers A,B] [--outlets "A:3,B:1"] [--password-stdin]
 *   accounts set NAME [--role R] [--display TEXT] [--tags a,b | --controllers A,B | --outlets "A:3" | --everywhere]
 *   accounts passwd NAME --password-stdin     accounts remove NAME
 *   accounts disable NAME / enable NAME        accounts revoke NAME (ends its sessions)
 *
 * A password comes only from standard input (typed hidden at a terminal), never from the command line.
 * The first administrator is added the same way on the service's machine, as the owner of its config
 * folder (who acts as an administrator there).
 */
import type { Command } from 'commander';
import type { CallInput } from '../../src-preload/contract';
import type { AccountSummary, OutletRef, Scope } from '../../src-preload/model';
import { localDateTime } from '../../src-preload/words';
import type { CommandContext, Runner } from './command-context';
import type { CoreAccess } from './core-link';
import { leaf } from './global-options';
import { UsageError, excerpt } from './io';
import { renderTable } from './table';

const list = (text: unknown): string[] =>
  typeof text === 'string'
    ? text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0)
    : [];

/** The scope the options give: everything without any, else the tags, controllers and outlets named. */
async function scopeOf(
  core: CoreAccess,
  local: Record<string, unknown>,
): Promise<CallInput<'accounts/add'>['scope']> {
  const tags = list(local.tags);
  const controllers = list(local.controllers);
  const outlets = list(local.outlets);
  if (tags.length + controllers.length + outlets.length === 0) return { kind: 'all' };
  const saved = await core.call('controllers/list', {});
  const find = (name: string) => {
    const wanted = name.trim().toLowerCase();
    const found = saved.find((c) => c.name.toLowerCase() === wanted || c.id === name);
    if (!found)
      throw new UsageError(
        `No saved controller is called "${excerpt(name)}" (see: plugboard controllers list).`,
      );
    return found.id;
  };
  const refs: OutletRef[] = outlets.map((text) => {
    const colon = text.lastIndexOf(':');
    const number = Number(text.slice(colon + 1));
    if (colon <= 0 || !/^\d{1,2}$/.test(text.slice(colon + 1)) || number < 1)
      throw new UsageError(`--outlets "${excerpt(text)}" is not "controller:outlet" (like "Bench A:3").`);
    return { controllerId: find(text.slice(0, colon)), outlet: number };
  });
  return { kind: 'some', tags, controllers: controllers.map(find), outlets: refs };
}

/** `set`'s scope: unchanged without a scope option, everything with --everywhere, else as `add` reads it. */
async function newScope(
  core: CoreAccess,
  local: Record<string, unknown>,
): Promise<CallInput<'accounts/update'>['scope']> {
  const limited = [local.tags, local.controllers, local.outlets].some((o) => typeof o === 'string');
  if (local.everywhere === true && limited)
    throw new UsageError('Give either --everywhere or --tags, --controllers and --outlets, not both.');
  if (local.everywhere === true) return { kind: 'all' };
  if (!limited) return undefined;
  const scope = await scopeOf(core, local);
  if (scope.kind === 'all')
    throw new UsageError(
      'The scope options name nothing: give tags, controllers or outlets, or --everywhere.',
    );
  return scope;
}

/** The options that limit a role to part of the lab, as `add` and `set` take them. */
function scopeOptions(command: Command): Command {
  return command
    .option('--tags <list>', 'limit the role to controllers with these tags (comma-separated)')
    .option('--controllers <list>', 'limit the role to these saved controllers (names, comma-separated)')
    .option('--outlets <list>', 'limit the role to these outlets, like "Bench A:3,Bench B:1"');
}

function scopeWords(scope: Scope): string {
  if (scope.kind === 'all') return 'everything';
  const parts = [
    ...scope.tags.map((t) => `tag ${t}`),
    ...scope.controllers.map((c) => `controller ${c}`),
    ...scope.outlets.map((o) => `${o.controllerId}:${o.outlet}`),
  ];
  return parts.length ? parts.join(', ') : 'nothing (may only look)';
}

async function readPassword(context: CommandContext, name: string): Promise<string> {
  const password = await context.terminal.readLine(`the password for ${name}`);
  if (!password) throw new UsageError('The password is empty.');
  return password;
}

/** Run `work` with the Core, --password-stdin after the command being the account's, not a login's. */
async function withAccounts(
  context: CommandContext,
  work: (core: CoreAccess) => Promise<void>,
): Promise<void> {
  const { withCore } = await import('./core-access');
  await withCore(
    { ...context, options: { ...context.options, passwordStdin: context.globals.passwordStdin } },
    work,
  );
}

function printList(context: CommandContext, accounts: AccountSummary[]): void {
  if (context.json) return context.terminal.json(accounts);
  if (accounts.length === 0)
    return context.terminal.print(
      'No accounts. Add the first administrator with: plugboard accounts add NAME --role admin --password-stdin',
    );
  context.terminal.print(
    renderTable<AccountSummary>(
      accounts,
      [
        { title: 'NAME', value: (a) => a.name },
        { title: 'DISPLAY NAME', value: (a) => a.displayName },
        { title: 'ROLE', value: (a) => a.role },
        { title: 'SCOPE', value: (a) => scopeWords(a.scope) },
        {
          title: 'STATE',
          value: (a) => (a.disabled ? 'disabled' : a.hasPassword ? 'enabled' : 'no password'),
        },
        { title: 'SESSIONS', value: (a) => String(a.sessions) },
        { title: 'CREATED', value: (a) => localDateTime(a.createdAt) },
      ],
      context.terminal.colors.bold,
    ),
  );
}

export function registerAccountCommands(program: Command, run: Runner): void {
  const accounts = program
    .command('accounts')
    .description('people and machine clients who sign in to the lab service (admin only)');

  leaf(accounts.command('list').description('every account: role, scope, state, sessions signed in')).action(
    run(async (context) => {
      await withAccounts(context, async (core) => printList(context, await core.call('accounts/list', {})));
    }),
  );

  leaf(
    scopeOptions(
      accounts
        .command('add')
        .argument('<name>', 'what they sign in with: letters, digits, ".", "_" or "-"')
        .requiredOption('--role <role>', 'observer, operator or admin')
        .option('--display <text>', 'the name people see (default: NAME)'),
    ).option('--password-stdin', 'read the password from standard input (without it: no password sign-in)'),
    ['--password-stdin', '--password'],
  ).action(
    run(async (context, name) => {
      const local = context.local as Record<string, unknown>;
      await withAccounts(context, async (core) => {
        const scope = await scopeOf(core, local);
        const password = local.passwordStdin === true ? await readPassword(context, String(name)) : undefined;
        const added = await core.call('accounts/add', {
          name: String(name),
          role: String(local.role) as AccountSummary['role'],
          scope,
          ...(typeof local.display === 'string' ? { displayName: local.display } : {}),
          ...(password !== undefined ? { password } : {}),
        });
        if (context.json) return context.terminal.json(added);
        context.terminal.print(
          `Added ${added.name} (${added.role}, ${scopeWords(added.scope)})${added.hasPassword ? '' : ' without a password: it cannot sign in with one until `plugboard accounts passwd` gives it one'}.`,
        );
      });
    }),
  );

  leaf(
    scopeOptions(
      accounts
        .command('set')
        .argument('<name>', 'the account')
        .description('change an account in place: what is not given stays (its sessions act with it at once)')
        .option('--role <role>', 'observer, operator or admin')
        .option('--display <text>', 'the name people see (empty: NAME)'),
    ).option('--everywhere', 'let the role apply to everything (no tags, controllers or outlets)'),
  ).action(
    run(async (context, name) => {
      const local = context.local as Record<string, unknown>;
      await withAccounts(context, async (core) => {
        const scope = await newScope(core, local);
        const input: CallInput<'accounts/update'> = {
          name: String(name),
          ...(typeof local.role === 'string' ? { role: local.role as AccountSummary['role'] } : {}),
          ...(typeof local.display === 'string' ? { displayName: local.display } : {}),
          ...(scope ? { scope } : {}),
        };
        if (Object.keys(input).length === 1)
          throw new UsageError(
            'Say what to change: --role, --display, or the scope (--tags, --controllers, --outlets or --everywhere).',
          );
        const changed = await core.call('accounts/update', input);
        if (context.json) return context.terminal.json(changed);
        context.terminal.print(
          `${changed.name} is now an ${changed.role} of ${scopeWords(changed.scope)}${changed.displayName !== changed.name ? `, shown as "${changed.displayName}"` : ''}.`,
        );
      });
    }),
  );

  leaf(
    accounts
      .command('passwd')
      .argument('<name>', 'the account')
      .option('--password-stdin', 'read the new password from standard input (required)')
      .description('set a new password (its sessions end; a lock on it is lifted)'),
    ['--password-stdin', '--password'],
  ).action(
    run(async (context, name) => {
      if (context.local.passwordStdin !== true)
        throw new UsageError(
          'accounts passwd needs --password-stdin: the password is read from standard input.',
        );
      await withAccounts(context, async (core) => {
        await core.call('accounts/setPassword', {
          name: String(name),
          password: await readPassword(context, String(name)),
        });
        context.terminal.print(`Set a new password for ${String(name).toLowerCase()}; its sessions ended.`);
      });
    }),
  );

  const simple: [string, string, (core: CoreAccess, name: string) => Promise<string>][] = [
    [
      'remove',
      'remove an account and its sessions',
      async (core, name) => (await core.call('accounts/remove', { name }), `Removed ${name}.`),
    ],
    [
      'disable',
      'keep an account but let it not sign in (its sessions end)',
      async (core, name) => (
        await core.call('accounts/setDisabled', { name, disabled: true }),
        `Disabled ${name}.`
      ),
    ],
    [
      'enable',
      'let a disabled account sign in again',
      async (core, name) => (
        await core.call('accounts/setDisabled', { name, disabled: false }),
        `Enabled ${name}.`
      ),
    ],
    [
      'revoke',
      'end every session of an account (it may sign in again)',
      async (core, name) => {
        const { sessions } = await core.call('accounts/revoke', { name });
        return `Ended ${sessions} session${sessions === 1 ? '' : 's'} of ${name}.`;
      },
    ],
  ];
  for (const [verb, description, act] of simple)
    leaf(accounts.command(verb).argument('<name>', 'the account').description(description)).action(
      run(async (context, name) => {
        await withAccounts(context, async (core) => {
          const said = await act(core, String(name).trim().toLowerCase());
          if (context.json) context.terminal.json({ done: verb, name: String(name).trim().toLowerCase() });
          else context.terminal.print(said);
        });
      }),
    );
}
