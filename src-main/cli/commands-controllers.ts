/**
 * `controllers list|add|remove`: the saved controllers the app shows too, through the Core — the same
 * add path as the window (verified first, a duplicate name or address refused, the secret bound to the
 * address and login it was saved for, in the OS keychain only), recorded as the CLI's.
 */
import type { Command } from 'commander';
import type { ControllerState, ControllerSummary } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import { checkedFingerprint, checkedUrl, requiredCredentials, urlSource } from './connect';
import { UsageError, excerpt } from './io';
import type { Runner } from './command-context';
import { leaf } from './global-options';
import { renderTable } from './table';

function summaryJson(c: ControllerSummary): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    url: c.url,
    auth: c.auth,
    user: c.user,
    fingerprint: c.fingerprint,
    has_secret: c.hasSecret,
  };
}

/** What "add" learnt about the controller, in words. */
function facts(state: ControllerState | undefined): string {
  const identity = state?.identity;
  const capabilities = state?.capabilities;
  if (!capabilities) return '';
  const words = [
    identity?.model ? `${identity.model} ${identity.serial}`.trim() : 'model not readable with this login',
    identity?.firmware ? `firmware ${identity.firmware}` : '',
    `${capabilities.outletCount} outlets`,
    capabilities.meters ? 'meters' : 'no meters',
    capabilities.isAdmin ? 'administrator' : 'not an administrator',
  ];
  return ` (${words.filter(Boolean).join(', ')})`;
}

export function registerControllerCommands(program: Command, run: Runner): void {
  const controllers = program.command('controllers').description('saved controllers (shared with the app)');

  leaf(controllers.command('list').description('list saved controllers')).action(
    run(async (context) => {
      const { withCore } = await import('./core-access');
      await withCore(context, async (core) => {
        const saved = await core.call('controllers/list', {});
        if (context.json) return context.terminal.json(saved.map(summaryJson));
        if (!saved.length)
          return context.terminal.print(
            'No saved controllers. Add one with: controllers add NAME --url http://host',
          );
        const c = context.terminal.colors;
        context.terminal.print(
          renderTable(
            saved,
            [
              { title: 'NAME', value: (s) => s.name },
              { title: 'URL', value: (s) => s.url },
              { title: 'LOGIN', value: (s) => (s.auth === 'token' ? 'token' : `${s.auth} ${s.user}`) },
              {
                title: 'CERTIFICATE',
                value: (s) => (s.fingerprint ? `${s.fingerprint.slice(0, 23)}…` : ''),
              },
            ],
            c.bold,
          ),
        );
      });
    }),
  );

  leaf(
    controllers
      .command('add')
      .argument('<name>', 'a name for the controller, used in targets ("NAME:3") and with --controller')
      .option(
        '--basic',
        'log in with HTTP Basic (needs "Allow legacy plaintext login methods" on the controller)',
      )
      .description(
        'verify a controller (--url, --user, --password…) and save it; the secret goes to the OS keychain',
      ),
  ).action(
    run(async (context, name) => {
      const { options, terminal } = context;
      if (options.controller !== undefined)
        throw new UsageError('controllers add takes --url, not --controller.');
      const typed = options.url ?? terminal.io.env.PLUGBOARD_URL;
      if (!typed) throw new UsageError('Give the address with --url http://host (or PLUGBOARD_URL).');
      const url = checkedUrl(typed, urlSource(options));
      const fingerprint = checkedFingerprint(options.acceptFingerprint);
      const credentials = await requiredCredentials(options, terminal);
      if (context.local.basic === true && credentials.kind === 'token')
        throw new UsageError('--basic is for a user and password, not a token.');
      const auth =
        credentials.kind === 'token'
          ? { kind: 'token' as const, token: credentials.token }
          : {
              kind: context.local.basic === true ? ('basic' as const) : ('digest' as const),
              user: credentials.user,
              password: credentials.password,
            };
      const { withCore } = await import('./core-access');
      await withCore(context, async (core) => {
        const saved = await core.call('controllers/add', {
          name: String(name),
          url,
          auth,
          ...(fingerprint ? { fingerprint } : {}),
        });
        // Without a keychain that takes it, the Core keeps the secret only while it runs.
        const { where } = await core.call('controllers/secretWhere', { controllerId: saved.id });
        if (where === 'session' && core.inProcess) {
          const login = auth.kind === 'token' ? '--token' : '--password-stdin';
          const user = auth.kind === 'token' ? '' : ` ${auth.user}`;
          terminal.warn(
            `plugboard: "${saved.name}" is saved without its ${auth.kind === 'token' ? 'token' : 'password'}: this machine has no keychain to keep it in. Give it with each command (--controller "${saved.name}" ${login}), or once to a running plugboard serve (plugboard password${user} --password-stdin).`,
          );
        }
        if (context.json) return terminal.json(summaryJson(saved));
        const { states } = await core.call('app/snapshot', {});
        terminal.print(
          `Saved "${saved.name}"${facts(states.find((s) => s.id === saved.id))}. Use it as "${saved.name}:3" or with --controller "${saved.name}".`,
        );
      });
    }),
  );

  leaf(
    controllers
      .command('remove')
      .argument('<name>', 'saved controller name')
      .description('forget a saved controller and its secret'),
  ).action(
    run(async (context, name) => {
      const { withCore } = await import('./core-access');
      await withCore(context, async (core) => {
        const wanted = String(name).trim().toLowerCase();
        const saved = (await core.call('controllers/list', {})).find(
          (c) => c.name.toLowerCase() === wanted || c.id === String(name),
        );
        if (!saved)
          throw new PlugboardError('NOT_FOUND', `No saved controller is called "${excerpt(String(name))}".`);
        await core.call('controllers/remove', { id: saved.id });
        if (context.json) return context.terminal.json({ removed: saved.name });
        context.terminal.print(`Removed "${saved.name}" and its stored password.`);
      });
    }),
  );
}
