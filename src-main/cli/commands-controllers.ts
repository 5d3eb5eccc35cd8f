/**
 * `controllers list|add|remove`: the saved controllers the app shows too (one config.json). Passwords and
 * tokens go to the OS keychain only; `add` verifies the controller before saving anything.
 */
import type { Command } from 'commander';
import type { ControllerSummary } from '../../src-preload/model';
import { DliClient } from '../dli/client';
import { PlugboardError } from '../shared/errors';
import { checkedFingerprint, checkedUrl, openRegistry, requiredCredentials, urlSource } from './connect';
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

export function registerControllerCommands(program: Command, run: Runner): void {
  const controllers = program.command('controllers').description('saved controllers (shared with the app)');

  leaf(controllers.command('list').description('list saved controllers')).action(
    run(async (context) => {
      const saved = (await openRegistry(context.terminal)).list();
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
            { title: 'CERTIFICATE', value: (s) => (s.fingerprint ? `${s.fingerprint.slice(0, 23)}…` : '') },
          ],
          c.bold,
        ),
      );
    }),
  );

  leaf(
    controllers
      .command('add')
      .argument('<name>', 'a name for the controller, used with --controller')
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
      const registry = await openRegistry(terminal);
      if (registry.find(String(name))) {
        throw new PlugboardError(
          'BAD_INPUT',
          `A controller called "${excerpt(String(name))}" is already saved; pick another name or remove it first.`,
        );
      }
      let credentials = await requiredCredentials(options, terminal);
      if (context.local.basic === true) {
        if (credentials.kind === 'token')
          throw new UsageError('--basic is for a user and password, not a token.');
        credentials = { ...credentials, kind: 'basic' };
      }
      const client = new DliClient({ url, credentials, name: String(name), fingerprint });
      try {
        const description = await client.describe();
        const secret = credentials.kind === 'token' ? credentials.token : credentials.password;
        const saved = await registry.add(
          {
            name: String(name),
            url,
            auth: credentials.kind,
            user: credentials.kind === 'token' ? '' : credentials.user,
            fingerprint: description.fingerprint,
          },
          secret,
        );
        if (context.json) return terminal.json(summaryJson(saved));
        const { identity, capabilities } = description;
        const facts = [
          identity.model
            ? `${identity.model} ${identity.serial}`.trim()
            : 'model not readable with this login',
          identity.firmware ? `firmware ${identity.firmware}` : '',
          `${capabilities.outletCount} outlets`,
          capabilities.meters ? 'meters' : 'no meters',
          capabilities.isAdmin ? 'administrator' : 'not an administrator',
        ];
        terminal.print(
          `Saved "${saved.name}" (${facts.filter(Boolean).join(', ')}). Use it with --controller "${saved.name}".`,
        );
      } finally {
        await client.close();
      }
    }),
  );

  leaf(
    controllers
      .command('remove')
      .argument('<name>', 'saved controller name')
      .description('forget a saved controller and its secret'),
  ).action(
    run(async (context, name) => {
      const registry = await openRegistry(context.terminal);
      const saved = registry.find(String(name));
      if (!saved)
        throw new PlugboardError('NOT_FOUND', `No saved controller is called "${excerpt(String(name))}".`);
      await registry.remove(saved.id);
      if (context.json) return context.terminal.json({ removed: saved.name });
      context.terminal.print(`Removed "${saved.name}" and its stored password.`);
    }),
  );
}
