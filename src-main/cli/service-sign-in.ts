/**
 * What `plugboard sign-in` and `plugboard sign-out` do (commands-sign-in.ts registers them): a person's session on a lab service (`--service`), kept
 * in the OS keychain only (service-session.ts), so later commands with that --service act as the
 * account without a token on the command line:
 *
 *   plugboard --service https://lab:8443 --service-fingerprint AB:… sign-in --account ada [--password-stdin]
 *   plugboard --service https://lab:8443 --service-fingerprint AB:… sign-in --provider   (service-provider-sign-in.ts)
 *   plugboard --service https://lab:8443 --service-fingerprint AB:… sign-out
 *
 * The password comes from standard input (typed hidden at a terminal), never from the command line. No
 * keychain: sign-in refuses before sending the password (a session in a file would be readable by
 * whoever reads the file). Sign-out deletes the session here even when the service cannot be told.
 */
import { localDateTime } from '../../src-preload/words';
import { answerError, postToLab, postToService } from '../link/service-post';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { KeytarSecretStore, type SecretStore } from '../secrets';
import type { CommandContext } from './command-context';
import { serviceLookup } from './core-access';
import { UsageError } from './io';
import { forgetSession, keepSession, keptSession, serviceError } from '../link/service-session';
import { serviceAddresses, type ServiceAddress } from './service-list';
import { loopback } from './service-warnings';

interface SignedIn {
  token: string;
  expiresAt: number;
  account: { name: string; displayName: string; role: string };
}

/** The --service addresses, or a usage error: signing in is to a lab service only. */
function addressesOf(context: CommandContext, verb: string): ServiceAddress[] {
  const lookup = serviceLookup(context);
  if (lookup.url === undefined)
    throw new UsageError(
      `${verb} needs the lab service's address: plugboard --service https://HOST:PORT --service-fingerprint SHA256 ${verb} …`,
    );
  const addresses = serviceAddresses(lookup.url, lookup.fingerprint);
  // A password, and the session after it, would cross the network in clear: refused before either is sent.
  const plain = addresses.find((a) => {
    const url = URL.canParse(a.url) ? new URL(a.url) : null;
    return url?.protocol === 'http:' && !loopback(url.hostname);
  });
  if (plain)
    throw new UsageError(
      `--service ${plain.url} is plain HTTP to another machine: the password and the session would cross the network in clear. Use the service's https:// address (with --service-fingerprint), or reach it through \`ssh -L\`.`,
    );
  return addresses;
}

/** The OS keychain, or a refusal saying that a session is kept nowhere else. */
async function keychain(verb: string): Promise<SecretStore> {
  const store = new KeytarSecretStore();
  try {
    await store.accounts();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new PlugboardError(
      'INTERNAL',
      `${verb === 'sign-in' ? 'Signing in' : 'Signing out'} needs the OS keychain, where the session is kept (never in a file), and no keychain answered: ${why}`,
      undefined,
      {
        cause: error,
        action:
          'Start and unlock a keychain, or give the service a token instead (PLUGBOARD_SERVICE_TOKEN or --service-token-file).',
      },
    );
  }
  return store;
}

/** The note on stderr for an address passed over for the next one. */
function noteSkipped(
  context: CommandContext,
): (address: ServiceAddress, why: { standby: true } | { error: Error }) => void {
  return (address, why) =>
    context.terminal.warn(
      'standby' in why
        ? `plugboard: the Plugboard service at ${address.url} is a standby; trying the next.`
        : `plugboard: ${why.error.message} Trying the next service.`,
    );
}

async function accountName(context: CommandContext): Promise<string> {
  const given = context.local.account;
  if (typeof given === 'string' && given.trim() !== '') return given.trim();
  const input = context.terminal.io.in;
  if (!input.isTTY) throw new UsageError('sign-in needs the account: --account NAME.');
  const { createInterface } = await import('node:readline/promises');
  const lines = createInterface({ input, output: context.terminal.io.err, terminal: true });
  try {
    const name = (await lines.question('Account: ')).trim();
    if (!name) throw new UsageError('The account name is empty.');
    return name;
  } finally {
    lines.close();
  }
}

async function password(context: CommandContext, name: string): Promise<string> {
  if (context.local.passwordStdin !== true && !context.terminal.io.in.isTTY)
    throw new UsageError('sign-in reads the password from standard input: add --password-stdin.');
  const typed = await context.terminal.readLine(`the password of ${name}`);
  if (!typed) throw new UsageError('The password is empty.');
  return typed;
}

export async function signIn(context: CommandContext): Promise<void> {
  const addresses = addressesOf(context, 'sign-in');
  const store = await keychain('sign-in');
  if (context.local.provider === true)
    return (await import('./service-provider-sign-in')).signInThroughProvider(context, addresses, store);
  const name = await accountName(context);
  const secret = await password(context, name);
  const { answer, address } = await postToLab(
    addresses,
    '/api/v1/sign-in',
    { body: { name, password: secret } },
    noteSkipped(context),
  );
  const signed = answer.json as SignedIn | null;
  if (answer.status !== 200 || typeof signed?.token !== 'string')
    throw serviceError(answerError(answer.json), answer.status, address.url);
  try {
    await keepSession(store, addresses, signed.token);
  } catch (error) {
    // Kept nowhere: end it on the service rather than leave a session nobody holds.
    await postToService(address.url, '/api/v1/sign-out', {
      token: signed.token,
      fingerprint: address.fingerprint,
    }).catch(() => undefined);
    await forgetSession(store, addresses, signed.token).catch(() => 0);
    throw error;
  }
  const { account, expiresAt } = signed;
  if (context.json)
    return context.terminal.json({ signedIn: true, service: address.url, account, expiresAt });
  context.terminal.print(
    `Signed in to ${address.url} as ${account.displayName} (${account.name}, ${account.role}). The session is kept in this computer's keychain for ${addresses.map((a) => a.url).join(', ')}; unused, it ends ${localDateTime(expiresAt)}.`,
  );
}

export async function signOut(context: CommandContext): Promise<void> {
  const addresses = addressesOf(context, 'sign-out');
  const store = await keychain('sign-out');
  const kept = await keptSession(store, addresses);
  const where = addresses.map((a) => a.url).join(', ');
  if (!kept) {
    if (context.json) return context.terminal.json({ signedOut: false, service: where });
    return context.terminal.print(`No session is kept on this computer for ${where}.`);
  }
  let told: unknown = null;
  let ended = false;
  try {
    const { answer } = await postToLab(
      kept.addresses,
      '/api/v1/sign-out',
      { token: kept.token },
      noteSkipped(context),
    );
    ended = answer.status === 200;
  } catch (error) {
    told = error;
  }
  await forgetSession(store, addresses, kept.token);
  if (told !== null) {
    const why = told instanceof Error ? told.message : String(told);
    throw new PlugboardError(
      isPlugboardError(told) ? told.code : 'UNREACHABLE',
      `Deleted the session from this computer's keychain, but the service could not be told (${why}), so it still accepts the session until it expires.`,
      undefined,
      { action: 'To end it there now, an administrator can run: plugboard accounts revoke NAME.' },
    );
  }
  if (context.json) return context.terminal.json({ signedOut: true, service: where, endedOnService: ended });
  context.terminal.print(
    ended
      ? `Signed out of ${where}: the service ended the session, and it is deleted from this computer's keychain.`
      : `Signed out of ${where}: the session had already ended on the service; it is deleted from this computer's keychain.`,
  );
}
