/**
 * `plugboard sign-in --provider`: a person's session through the lab's identity provider, in the system
 * browser (link/provider-sign-in.ts does the sign-in), kept in the OS keychain as a password sign-in's
 * session is. The browser is `$BROWSER` when set, else the desktop's (xdg-open, open, start); the address
 * is printed too, for a machine without a browser: open it anywhere that reaches both the service and the
 * provider, and the sign-in comes back to this machine's loopback only if that browser runs here.
 */
import { spawn } from 'node:child_process';
import { localDateTime } from '../../src-preload/words';
import { signInWithProvider } from '../link/provider-sign-in';
import { postToService } from '../link/service-post';
import { isPlugboardError } from '../shared/errors';
import type { SecretStore } from '../secrets';
import type { CommandContext } from './command-context';
import { UsageError } from './io';
import { forgetSession, keepSession } from './service-session';
import type { ServiceAddress } from './service-list';

export async function signInThroughProvider(
  context: CommandContext,
  addresses: readonly ServiceAddress[],
  store: SecretStore,
): Promise<void> {
  if (typeof context.local.account === 'string' || context.local.passwordStdin === true)
    throw new UsageError(
      'sign-in --provider signs in through the identity provider: leave out --account and --password-stdin.',
    );
  const env = context.terminal.io.env;
  const abort = new AbortController();
  const stop = () => abort.abort();
  // Ctrl+C while the person is at the provider: the receiver stops and nothing is kept.
  const signals = context.terminal.io.signals ?? process;
  signals.once('SIGINT', stop);
  try {
    let last: unknown = null;
    for (const address of addresses) {
      let opened = false;
      try {
        const signed = await signInWithProvider(
          address,
          async (url) => {
            opened = true;
            context.terminal.warn(
              `Sign in through the identity provider in your browser; if none opens, open: ${url}`,
            );
            openSystemBrowser(url, env);
          },
          { signal: abort.signal },
        );
        return await keep(context, addresses, address, store, signed);
      } catch (error) {
        // Only a service that could not be asked at all is passed over for the next; once the browser
        // opened, the outcome is this service's.
        if (opened || !isPlugboardError(error) || !['UNREACHABLE', 'TIMEOUT', 'STANDBY'].includes(error.code))
          throw error;
        last = error;
        if (address !== addresses.at(-1))
          context.terminal.warn(`plugboard: ${error.message} Trying the next service.`);
      }
    }
    throw last;
  } finally {
    signals.off('SIGINT', stop);
  }
}

async function keep(
  context: CommandContext,
  addresses: readonly ServiceAddress[],
  address: ServiceAddress,
  store: SecretStore,
  signed: Awaited<ReturnType<typeof signInWithProvider>>,
): Promise<void> {
  try {
    await keepSession(store, addresses, signed.session);
  } catch (error) {
    // Kept nowhere: end it on the service rather than leave a session nobody holds.
    await postToService(address.url, '/api/v1/sign-out', {
      token: signed.session,
      fingerprint: address.fingerprint,
    }).catch(() => undefined);
    await forgetSession(store, addresses, signed.session).catch(() => 0);
    throw error;
  }
  const { account, expiresAt } = signed;
  if (context.json)
    return context.terminal.json({ signedIn: true, service: address.url, account, expiresAt });
  context.terminal.print(
    `Signed in to ${address.url} as ${account.displayName} (${account.name}, ${account.role}) through the identity provider. The session is kept in this computer's keychain for ${addresses.map((a) => a.url).join(', ')}; unused, it ends ${localDateTime(expiresAt)}.`,
  );
}

/** Open `url` in the system browser, without waiting for it; a missing opener is no error (the URL was printed). */
export function openSystemBrowser(url: string, env: NodeJS.ProcessEnv): void {
  const chosen = env.BROWSER?.trim();
  const [command, ...args] = chosen
    ? [...chosen.split(/\s+/), url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd.exe', '/d', '/s', '/c', `start "" "${url}"`]
        : ['xdg-open', url];
  try {
    const child = spawn(command!, args, {
      detached: true,
      stdio: 'ignore',
      windowsVerbatimArguments: process.platform === 'win32' && !chosen,
    });
    child.once('error', () => undefined);
    child.unref();
  } catch {
    // The address is printed: the person opens it by hand.
  }
}
