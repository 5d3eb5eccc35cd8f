/**
 * How a command reaches Plugboard's Core (the CLI goes through the Core): a running
 * `plugboard serve` when there is one (found in the config folder, or given with --service), else a Core
 * in this process over the saved controllers (config folder and keychain), with lazy sessions (only the
 * controllers a command addresses are polled), disposed when the command ends. Either way the calls are
 * recorded as this OS user through the CLI door. Commands see only `CoreAccess`.
 *
 * Loaded lazily (`await import('./core-access')`) by the commands that need it.
 */
import { appVersion } from '../shared/app-root';
import { readFile } from 'node:fs/promises';
import type { EventSink } from '../../src-preload/contract';
import type { Actor, ControllerSummary } from '../../src-preload/model';
import { openSavedCore } from '../core/saved-core';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { KeytarSecretStore } from '../secrets';
import { attachOrNone } from '../link';
import type { CommandContext } from './command-context';

export type { CoreAccess } from './core-link';
import { accessOver, type CoreAccess, type CoreLink } from './core-link';
import { configDirOf, excerpt } from './io';
import { serviceAddresses, type ServiceAddress } from './service-list';
import { keptSession, sessionRefused } from './service-session';
import { serviceTokenWarnings } from './service-warnings';

/** Where to look for a running service. */
export interface ServiceLookup {
  configDir: string;
  /**
   * --service URL (repeated or a comma list; or PLUGBOARD_SERVICE): those services and no other, never
   * the units directly.
   */
  url: string | undefined;
  /** --service-token (or PLUGBOARD_SERVICE_TOKEN): the service's bearer token. */
  token: string | undefined;
  /** --service-token-file: a file whose first line is the token (read only when `token` is not given). */
  tokenFile: string | undefined;
  /** The token was typed as --service-token (in the process list). */
  tokenOnCommandLine: boolean;
  /**
   * --service-fingerprint (or PLUGBOARD_SERVICE_FINGERPRINT): the services' HTTPS certificate, or a
   * comma list, one per --service address.
   */
  fingerprint: string | undefined;
  /** Where a note goes (an address that did not answer, a change sent on to the leader). */
  note: (line: string) => void;
}

/**
 * The Core running for this config folder (`plugboard serve`, the desktop app or the web shell, through
 * its owner-only socket `<configDir>/core.sock`, src-main/link/), or the service at `lookup.url`; null
 * when none runs. A Core that holds the folder but whose socket does not answer (one still starting is
 * waited for) is an error (UNREACHABLE), never a reason to start a second Core beside it.
 */
async function findRunningCore(lookup: ServiceLookup): Promise<CoreLink | null> {
  if (lookup.url !== undefined) {
    // Those services and no other: their errors (none answers, token refused) end the command, never
    // a fallback to the units or a local Core. A service records the calls as its token's name.
    const addresses = serviceAddresses(lookup.url, lookup.fingerprint);
    const { connectServices } = await import('./service-follow');
    const given = lookup.token ?? (lookup.tokenFile ? await readTokenFile(lookup.tokenFile) : undefined);
    // Without a token: the session `plugboard sign-in` kept for these addresses and certificates.
    const kept = given === undefined ? await keptSessionFor(addresses) : null;
    // A kept session goes only to the addresses (and certificates) it was kept for.
    const remote = await connectServices(kept?.addresses ?? addresses, {
      token: given ?? kept?.token,
      note: lookup.note,
    }).catch((error: unknown) => {
      if (kept && isPlugboardError(error) && error.code === 'AUTH_FAILED')
        throw sessionRefused(kept.addresses[0]!.url);
      throw error;
    });
    return {
      handlersAs: (actor) => remote.handlersAs({ door: 'cli', who: actor.who }),
      subscribe: (sink) => remote.subscribe(sink),
      close: () => remote.close(),
    };
  }
  const link = await attachOrNone(lookup.configDir);
  if (!link) return null;
  return {
    handlersAs: (actor) => link.handlersAs({ door: 'cli', who: actor.who }),
    subscribe: (sink) => link.subscribe(sink),
    close: () => link.close(),
  };
}

/**
 * The session kept in the keychain for one of `addresses`, or null. No keychain is no session: the
 * command goes on without one, as before sign-in existed (the service then asks for a token).
 */
async function keptSessionFor(
  addresses: readonly ServiceAddress[],
): Promise<{ token: string; addresses: ServiceAddress[] } | null> {
  try {
    return await keptSession(new KeytarSecretStore(), addresses);
  } catch {
    return null;
  }
}

export function serviceLookup(context: CommandContext): ServiceLookup {
  const env = context.terminal.io.env;
  const option = (key: string): string | undefined => {
    const value = context.options[key];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    configDir: configDirOf(env),
    url: option('service') ?? (env.PLUGBOARD_SERVICE || undefined),
    token: option('serviceToken') ?? (env.PLUGBOARD_SERVICE_TOKEN || undefined),
    tokenFile: option('serviceTokenFile'),
    tokenOnCommandLine: option('serviceToken') !== undefined,
    fingerprint: option('serviceFingerprint') ?? (env.PLUGBOARD_SERVICE_FINGERPRINT || undefined),
    note: (line) => context.terminal.warn(line),
  };
}

/** The token in `path`: its first non-blank line, trimmed. The file's text never reaches an error. */
async function readTokenFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PlugboardError(
      'BAD_INPUT',
      `--service-token-file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      undefined,
      {
        action: 'Give a file holding the token on its first line, readable by you only (chmod 600).',
      },
    );
  }
  const token = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line.length > 0);
  if (!token)
    throw new PlugboardError('BAD_INPUT', `--service-token-file ${path} is empty.`, undefined, {
      action: "Put the token (the secret of a name:secret line of the service's tokens) on its first line.",
    });
  return token;
}

export async function openCoreAccess(context: CommandContext): Promise<CoreAccess> {
  const lookup = serviceLookup(context);
  const warnings = serviceTokenWarnings({
    url: lookup.url,
    sendsToken: lookup.token !== undefined || lookup.tokenFile !== undefined,
    tokenOnCommandLine: lookup.tokenOnCommandLine,
  });
  for (const warning of warnings) context.terminal.warn(`plugboard: warning: ${warning}`);
  const service = await findRunningCore(lookup);
  if (!service && lookup.url !== undefined) {
    throw new PlugboardError('UNREACHABLE', `No Plugboard service answered at ${lookup.url}.`, undefined, {
      action: 'Check that `plugboard serve` runs there and the address, or leave out --service.',
    });
  }
  const link: CoreLink =
    service ??
    (await openSavedCore({
      shell: 'cli',
      version: appVersion(),
      configDir: lookup.configDir,
      env: context.terminal.io.env,
      lazySessions: true,
      // The OS keychain or an error saying why not: a password `controllers add` kept in memory would
      // be gone when the command ends (the app and web shell fall back to memory instead).
      secrets: new KeytarSecretStore(),
      log: (message) => context.terminal.warn(`plugboard: ${message}`),
    }).then((core) => ({
      // This OS user, who owns the config folder: an administrator, as in the window.
      handlersAs: (who: Actor) => core.handlersAs({ ...who, role: 'admin' }),
      subscribe: (sink: EventSink) => core.subscribe(sink),
      close: () => core.dispose(),
    })));
  return accessOver(link, service === null, context);
}

/** Run `work` with the Core and always close it. */
export async function withCore(
  context: CommandContext,
  work: (core: CoreAccess) => Promise<void>,
): Promise<void> {
  const core = await openCoreAccess(context);
  try {
    await context.beforeCore?.(core);
    await work(core);
  } finally {
    await core.close();
  }
}

/** Run `work` with the Core and the saved controller --controller names (NOT_FOUND lists the saved ones). */
export async function withSavedController(
  context: CommandContext,
  work: (core: CoreAccess, saved: ControllerSummary) => Promise<void>,
): Promise<void> {
  await withCore(context, async (core) => {
    const typed = String(context.options.controller);
    const wanted = typed.trim().toLowerCase();
    const list = await core.call('controllers/list', {});
    const saved = list.find((c) => c.name.toLowerCase() === wanted || c.id === typed);
    if (!saved) {
      const names = list.map((c) => `"${c.name}"`);
      throw new PlugboardError(
        'NOT_FOUND',
        `No saved controller is called "${excerpt(typed)}".${names.length ? ` Saved: ${names.join(', ')}.` : ' Add one with: controllers add NAME --url …'}`,
      );
    }
    await work(core, saved);
  });
}
