/**
 * One door to a saved controller: a command goes through the machine's Core whenever its controller is
 * saved — named with --controller, or reached with --url (or PLUGBOARD_URL) at a saved controller's
 * address — whatever login options come with it. The Core checks the reservations, queues the request
 * and records it as this command's; a one-off Core would know none of that (a running service would only
 * see an outside change). Only an address no saved controller has gets a one-off Core (ephemeral.ts).
 *
 * The login options keep the meaning the Core path has for them: --reuse-secret confirms the saved
 * secret for the place the record names now, --accept-fingerprint trusts a new certificate (saved, as
 * the window's Trust does), and a password typed for the saved user is used for this command when its
 * Core runs in this process. A login the Core does not use (another user; a running service, which logs
 * in with its own) is said on stderr.
 *
 * Loaded lazily (core-route.ts), only by commands given --url or a one-off login.
 */
import { lookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import type { ControllerSummary } from '../../src-preload/model';
import { CONTROLLERS_KEY, readControllers } from '../core/config';
import { addressHost, samePortsOfUnit } from '../shared/controller-address';
import { PlugboardError } from '../shared/errors';
import type { CommandContext, CoreCaller } from './command-context';
import { checkedFingerprint, checkedUrl, credentialsFrom, urlSource } from './connect';
import { configDirOf } from './io';
import { appVersion } from '../shared/app-root';

/** What names a PostgreSQL lab store (core/database/connection.ts): only then is the store read. */
const DATABASE_VARIABLES = ['PLUGBOARD_DATABASE_URL', 'PLUGBOARD_DATABASE_URL_FILE', 'CREDENTIALS_DIRECTORY'];

/** What is dropped from a command sent through the Core: the one-off login and the unit's address. */
const LOGIN_OPTIONS = [
  'url',
  'user',
  'password',
  'passwordStdin',
  'token',
  'acceptFingerprint',
  'reuseSecret',
] as const;

/**
 * The command as the Core path runs it (`--controller NAME`, its login applied once the Core is open),
 * or null when its controller is not saved (a one-off Core then takes the command).
 */
export async function savedRoute(context: CommandContext): Promise<CommandContext | null> {
  const o = context.options;
  const saved = await findSaved(context);
  if (!saved) return null;
  const options = { ...o, controller: saved.name };
  for (const key of LOGIN_OPTIONS) delete options[key];
  return { ...context, options, beforeCore: (core) => applyLogin(context, core, saved) };
}

async function findSaved(context: CommandContext): Promise<ControllerSummary | null> {
  const o = context.options;
  if (o.controller !== undefined) {
    const typed = String(o.controller);
    const wanted = typed.trim().toLowerCase();
    const list = await savedControllers(context);
    return list.find((c) => c.name.toLowerCase() === wanted || c.id === typed) ?? null;
  }
  const typed = o.url ?? context.terminal.io.env.PLUGBOARD_URL;
  if (!typed) return null;
  const url = checkedUrl(typed, urlSource(o));
  return savedAt(url, await savedControllers(context));
}

/** The service's saved controllers with --service (or PLUGBOARD_SERVICE), else this config folder's. */
async function savedControllers(context: CommandContext): Promise<ControllerSummary[]> {
  const env = context.terminal.io.env;
  const service =
    typeof context.options.service === 'string' ? context.options.service : env.PLUGBOARD_SERVICE;
  if (service) {
    const { openCoreAccess } = await import('./core-access');
    const core = await openCoreAccess(context);
    try {
      return await core.call('controllers/list', {});
    } finally {
      await core.close();
    }
  }
  // A lab on PostgreSQL keeps its controllers there (this folder's config.json may be stale or empty);
  // a store that cannot be read is an error, not "no saved controller": the address may be a saved
  // controller's, whose reservations and critical outlets a one-off Core would not know.
  if (DATABASE_VARIABLES.some((name) => env[name])) {
    const { labStoreControllers } = await import('../core/store');
    const lab = await labStoreControllers(env, appVersion());
    if (lab) return lab;
  }
  // Read as it is, without creating the folder or taking its lock: only to tell where the command goes.
  let text: string;
  try {
    text = await readFile(path.join(configDirOf(env), 'config.json'), 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown> | null;
    return readControllers(parsed?.[CONTROLLERS_KEY], () => undefined);
  } catch {
    return [];
  }
}

/**
 * The saved controller a typed address reaches: the same port (http's 80 and https's 443 are one unit)
 * on the same host, by name or by any address the names resolve to. Demo controllers live only in the
 * app that started them, so they are never it.
 */
export async function savedAt(
  url: string,
  list: readonly ControllerSummary[],
): Promise<ControllerSummary | null> {
  const candidates = list.filter((c) => !c.demo && samePortsOfUnit(url, c.url));
  if (candidates.length === 0) return null;
  const host = addressHost(url);
  const literal = candidates.find((c) => addressHost(c.url) === host);
  if (literal) return literal;
  const mine = await addressesOf(host);
  for (const candidate of candidates) {
    const theirs = await addressesOf(addressHost(candidate.url));
    if (theirs.some((address) => mine.includes(address))) return candidate;
  }
  return null;
}

async function addressesOf(host: string): Promise<string[]> {
  if (isIP(host)) return [plainIp(host)];
  try {
    return (await lookup(host, { all: true })).map((a) => plainIp(a.address));
  } catch {
    return [host];
  }
}

/** An IPv4 address written as IPv6 (`::ffff:7f00:1`, as URL writes `[::ffff:127.0.0.1]`) in its IPv4 form. */
function plainIp(address: string): string {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
}

/** What the one-off login means on the Core path (see the top of this file). */
async function applyLogin(
  context: CommandContext,
  core: CoreCaller,
  saved: ControllerSummary,
): Promise<void> {
  const o = context.options;
  const { terminal } = context;
  const pinned = checkedFingerprint(o.acceptFingerprint);
  // Read before anything else of standard input: a command may read more lines after this one.
  const given = await credentialsFrom(o, terminal, saved.user || null);
  const tokenSaved = saved.auth === 'token';
  const forSaved =
    given !== null &&
    (tokenSaved ? given.kind === 'token' : given.kind !== 'token' && given.user === saved.user);
  const unused: string[] = [];
  if (given !== null && !forSaved)
    unused.push(given.kind === 'token' ? '--token' : `the login as ${given.user}`);
  if (given === null && o.user !== undefined && o.user !== saved.user) unused.push(`--user ${o.user}`);
  let secret = forSaved ? (given.kind === 'token' ? given.token : given.password) : undefined;

  if (pinned !== null && pinned !== saved.fingerprint) {
    await core.call('controllers/trustCertificate', {
      id: saved.id,
      fingerprint: pinned,
      ...(o.reuseSecret ? { reuseSecret: true as const } : {}),
      ...(secret !== undefined ? { secret } : {}),
    });
    secret = undefined;
    terminal.warn(`plugboard: ${saved.name} now trusts the certificate ${pinned.slice(0, 11)}… (saved).`);
  } else if (o.reuseSecret) {
    await core.call('controllers/update', { id: saved.id, reuseSecret: true });
  }

  if (secret !== undefined) {
    if (core.inProcess && !tokenSaved) {
      const { results } = await core.call('controllers/providePassword', {
        user: saved.user,
        password: secret,
        ids: [saved.id],
        remember: false,
      });
      const answer = results.find((r) => r.id === saved.id);
      if (answer && !answer.ok)
        throw new PlugboardError('AUTH_FAILED', answer.message ?? `${saved.name} refused the password.`);
    } else unused.push(tokenSaved ? '--token' : 'the password given');
  }
  if (unused.length > 0) {
    const login = tokenSaved ? 'with its saved token' : `as ${saved.user}`;
    const through = core.inProcess ? 'Plugboard' : 'the Plugboard service';
    terminal.warn(
      `plugboard: ${saved.name} is a saved controller, so this goes through ${through}, which logs in to it ${login}: ${unused.join(' and ')} ${unused.length > 1 ? 'were' : 'was'} not used.`,
    );
  }
}
