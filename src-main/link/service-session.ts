/**
 * A signed-in session of a lab service (`plugboard sign-in`, a desk's `labs/signIn`), kept in the OS keychain only (never a file, a log, the output
 * or an argument), bound like a controller's secret to its place: the service's address (scheme, host
 * and port) and the certificate fingerprint it was pinned by, so the token goes only where it came from.
 *
 * One session is the lab's: the services of a lab (a leader and its standbys) share one store, so a
 * session any of them gave is good at all of them. Signing in with a list of addresses keeps the one
 * token under each address with its fingerprint; a later command with any of those addresses (alone,
 * in another order or in a shorter list) and the same fingerprint finds it. A different certificate,
 * or an address not signed in with, finds nothing and sends nothing.
 */
import { ERROR_CODES, type ErrorCode } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import { normalize } from './remote';
import { originOf, type ServiceAddress } from './service-address';

/**
 * What is used of the keychain (src-main/secrets' SecretStore, which this layer does not import): the
 * CLI's `plugboard sign-in` and a desk keep sessions under the same accounts, so either finds the other's.
 */
export interface SessionKeychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  accounts(): Promise<string[]>;
}

const PREFIX = 'service-session:';

/** The keychain account of a session at `address`: its origin and pinned certificate (or none). */
export function sessionAccount(address: ServiceAddress): string {
  const origin = originOf(address.url) ?? address.url;
  const pin = address.fingerprint ? normalize(address.fingerprint) : 'no-pin';
  return `${PREFIX}${origin} ${pin}`;
}

/**
 * The session kept for the first of `addresses` that has one, with every one of `addresses` it is kept
 * for (in their order): the token goes to those only, or null when none has one.
 */
export async function keptSession(
  store: SessionKeychain,
  addresses: readonly ServiceAddress[],
): Promise<{ token: string; addresses: ServiceAddress[] } | null> {
  let token: string | null = null;
  const keptFor: ServiceAddress[] = [];
  for (const address of addresses) {
    const kept = await store.get(sessionAccount(address));
    if (kept && (token === null || kept === token)) {
      token = kept;
      keptFor.push(address);
    }
  }
  return token === null ? null : { token, addresses: keptFor };
}

/** Keep `token` for every one of `addresses`. */
export async function keepSession(
  store: SessionKeychain,
  addresses: readonly ServiceAddress[],
  token: string,
): Promise<void> {
  for (const address of addresses) await store.set(sessionAccount(address), token);
}

/**
 * Delete the session under `addresses`, and the same token wherever else it is kept (the lab's other
 * addresses it was signed in with); how many entries went.
 */
export async function forgetSession(
  store: SessionKeychain,
  addresses: readonly ServiceAddress[],
  token: string,
): Promise<number> {
  const accounts = new Set(addresses.map(sessionAccount));
  for (const account of await store.accounts())
    if (account.startsWith(PREFIX) && !accounts.has(account) && (await store.get(account)) === token)
      accounts.add(account);
  let deleted = 0;
  for (const account of accounts) if (await store.delete(account)) deleted++;
  return deleted;
}

/** A service's error answer as a PlugboardError with its own code and words. */
export function serviceError(
  answer: { code: string; message: string; action?: string } | null,
  status: number,
  where: string,
): PlugboardError {
  if (!answer)
    return new PlugboardError(
      'NOT_A_CONTROLLER',
      `Something answered at ${where} (HTTP ${status}), but not a Plugboard service's sign-in.`,
      undefined,
      { action: 'Give --service the service\'s api listener address, as it printed at start ("api: …").' },
    );
  const code: ErrorCode = (ERROR_CODES as readonly string[]).includes(answer.code)
    ? (answer.code as ErrorCode)
    : status === 401
      ? 'AUTH_FAILED'
      : 'DEVICE_ERROR';
  return new PlugboardError(code, answer.message, undefined, answer.action ? { action: answer.action } : {});
}
