/**
 * `controllers list|add|update|remove`: the saved controllers the app shows too, through the Core — the same
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
    mqtt_topic: c.mqttTopic,
  };
}

/** `--mqtt-topic ROOT` (the topic root the unit publishes its outlets under), `--no-mqtt-topic`, or absent. */
function mqttTopicOption(local: Record<string, unknown>): { mqttTopic?: string | null } {
  if (local.mqttTopic === false) return { mqttTopic: null };
  if (typeof local.mqttTopic !== 'string') return {};
  if (local.mqttTopic.trim() === '')
    throw new UsageError('--mqtt-topic needs a topic root, such as dli/rack7/pdu1.');
  return { mqttTopic: local.mqttTopic };
}

const MQTT_TOPIC_HELP =
  "the topic root the unit publishes its outlet changes under (MQTT, the unit's External APIs page, Allow read only)";

/** A saved controller by name or id, or NOT_FOUND. */
function savedNamed(saved: readonly ControllerSummary[], name: string): ControllerSummary {
  const wanted = name.trim().toLowerCase();
  const found = saved.find((c) => c.name.toLowerCase() === wanted || c.id === name);
  if (!found) throw new PlugboardError('NOT_FOUND', `No saved controller is called "${excerpt(name)}".`);
  return found;
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
      .option('--mqtt-topic <root>', MQTT_TOPIC_HELP)
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
          ...mqttTopicOption(context.local),
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
      .command('update')
      .argument('<name>', 'saved controller name')
      .option('--mqtt-topic <root>', MQTT_TOPIC_HELP)
      .option('--no-mqtt-topic', 'the unit does not publish over MQTT (its outlets are polled as usual)')
      .description("change a saved controller's settings"),
  ).action(
    run(async (context, name) => {
      const change = mqttTopicOption(context.local);
      if (!('mqttTopic' in change))
        throw new UsageError('Say what to change: --mqtt-topic ROOT or --no-mqtt-topic.');
      const { withCore } = await import('./core-access');
      await withCore(context, async (core) => {
        const saved = savedNamed(await core.call('controllers/list', {}), String(name));
        const updated = await core.call('controllers/update', { id: saved.id, ...change });
        if (context.json) return context.terminal.json(summaryJson(updated));
        context.terminal.print(
          updated.mqttTopic
            ? `"${updated.name}" publishes its outlets under ${updated.mqttTopic}: its messages make Plugboard read them at once.`
            : `"${updated.name}" does not publish over MQTT: its outlets are polled as usual.`,
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
        const saved = savedNamed(await core.call('controllers/list', {}), String(name));
        await core.call('controllers/remove', { id: saved.id });
        if (context.json) return context.terminal.json({ removed: saved.name });
        context.terminal.print(`Removed "${saved.name}" and its stored password.`);
      });
    }),
  );
}
