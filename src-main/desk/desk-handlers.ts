/**
 * The `labs/*` calls as a desk answers them (a Core alone refuses them: core/handlers/labs.ts). Adding
 * a lab checks that a Plugboard service answers there with the pinned certificate before anything is
 * kept; signing in keeps the session in the keychain only, bound to the lab's addresses and
 * certificates; `labs/call` is one call on the lab's Core, through the remote link.
 */
import type { Handlers, LabHandlers } from '../../src-preload/contract';
import type { LinkActor } from '../link';
import { normalize } from '../link/remote';
import { originOf } from '../link/service-address';
import { keepSession } from '../link/service-session';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import type { DeskLabs } from './desk-labs';
import type { LabConnection } from './lab-connection';
import { labAddresses } from './lab-records';
import {
  isLoopbackUrl,
  postToLab,
  refusalOf,
  serviceStatus,
  type ServiceStatus,
  type SignedIn,
} from './lab-service';

export function deskLabHandlers(labs: DeskLabs, actor: LinkActor, own: Handlers): LabHandlers {
  return {
    'labs/list': async () => labs.summaries(),
    'labs/add': async ({ addresses, fingerprints }) => {
      const record = { name: '', addresses, fingerprints: pins(addresses.length, fingerprints ?? []) };
      for (const url of addresses) {
        const known = labs.all().find((c) => c.record.addresses.some((a) => originOf(a) === originOf(url)));
        if (known)
          throw new PlugboardError(
            'BAD_INPUT',
            `${url} is already attached as the lab ${known.record.name}.`,
          );
      }
      const status = await firstAnswer(labAddresses(record));
      const connection = labs.add({
        ...record,
        name: status.service ?? new URL(addresses[0]!).hostname,
      });
      connection.setProvider(status.provider);
      // A session `plugboard sign-in` (or an earlier desk) kept for these addresses is used at once.
      await connection.resume();
      labs.changed();
      return connection.summary();
    },
    'labs/signIn': async ({ lab, name, password }) => {
      const connection = labs.find(lab);
      const addresses = connection.addresses;
      const plain = addresses.find((a) => a.url.startsWith('http:') && !isLoopbackUrl(a.url));
      if (plain)
        throw new PlugboardError(
          'BAD_INPUT',
          `${plain.url} is plain HTTP to another machine: the password and the session would cross the network in clear.`,
          undefined,
          { action: 'Attach the lab by its https:// address, with the fingerprint of its certificate.' },
        );
      const { answer, address } = await postToLab(addresses, '/api/v1/sign-in', { body: { name, password } });
      const signed = answer.json as SignedIn | null;
      if (answer.status !== 200 || typeof signed?.token !== 'string') throw refusalOf(answer, address.url);
      await keep(labs, connection, signed.token, address.url);
      return connection.summary();
    },
    'labs/signInWithProvider': async ({ lab }) => {
      const connection = labs.find(lab);
      const signInWith = labs.signInWithProvider;
      if (!signInWith)
        throw new PlugboardError(
          'BAD_INPUT',
          'This Plugboard cannot sign in through an identity provider: it has no way to open the system browser.',
          undefined,
          { action: "Sign in with the account's name and password." },
        );
      const address = connection.addresses[0]!;
      const status = await serviceStatus(address).catch(() => null);
      if (status) connection.setProvider(status.provider);
      if (!connection.summary().provider)
        throw new PlugboardError(
          'BAD_INPUT',
          `The lab ${connection.record.name} offers no sign-in through an identity provider.`,
          undefined,
          { action: "Sign in with the account's name and password." },
        );
      const signed = await signInWith(
        { url: address.url, fingerprint: address.fingerprint },
        labs.openBrowser ?? (() => Promise.reject(new Error('no browser to open'))),
      );
      await keep(labs, connection, signed.session, address.url);
      return connection.summary();
    },
    'labs/signOut': async ({ lab }) => {
      const connection = labs.find(lab);
      await connection.signOut();
      return connection.summary();
    },
    'labs/remove': async ({ lab }) => {
      labs.find(lab);
      await labs.remove(lab);
      // The lab's favourites on this desk go with it.
      const settings = await own['settings/get']({});
      const kept = settings.trayFavourites.filter((f) => f.lab !== lab);
      if (kept.length !== settings.trayFavourites.length) await own['settings/set']({ trayFavourites: kept });
      return null;
    },
    'labs/call': async ({ lab, name, input }) => labs.find(lab).call(name, input, actor),
  };
}

/** Keep a new session for every address of the lab, then connect with it. */
async function keep(labs: DeskLabs, connection: LabConnection, token: string, where: string): Promise<void> {
  try {
    await keepSession(labs.secrets, connection.addresses, token);
  } catch (error) {
    // Kept nowhere: end it on the service rather than leave a session nobody holds.
    await postToLab(connection.addresses, '/api/v1/sign-out', { token }).catch(() => undefined);
    throw new PlugboardError(
      'INTERNAL',
      `Signed in to ${where}, but this computer's keychain did not keep the session (${(error as Error).message}), so it was ended again: a session is kept nowhere else.`,
      undefined,
      { cause: error, action: 'Start and unlock the keychain, then sign in again.' },
    );
  }
  await connection.useSession(token);
}

/** The fingerprints to keep: none, one for every address, or one per address (normalised). */
function pins(count: number, given: readonly string[]): string[] {
  if (given.length > 1 && given.length !== count)
    throw new PlugboardError(
      'BAD_INPUT',
      `${count} addresses but ${given.length} fingerprints: give one for all of them (the services share one certificate) or one per address, in the same order.`,
    );
  return given.map((f) => {
    const pinned = normalize(f);
    if (pinned.length !== 95)
      throw new PlugboardError(
        'BAD_INPUT',
        `${f.slice(0, 20)}… is not a SHA-256 fingerprint (32 hex pairs, like AB:CD:…).`,
      );
    return pinned;
  });
}

/**
 * The status of the first of the lab's services that answers as a Plugboard service. A certificate that
 * is not the pinned one, or something that is not Plugboard, refuses the lab whatever the others say.
 */
async function firstAnswer(addresses: ReturnType<typeof labAddresses>): Promise<ServiceStatus> {
  let answered: ServiceStatus | null = null;
  const failures: string[] = [];
  for (const address of addresses) {
    try {
      const status = await serviceStatus(address);
      answered ??= status;
    } catch (error) {
      if (!isPlugboardError(error) || (error.code !== 'UNREACHABLE' && error.code !== 'TIMEOUT')) throw error;
      failures.push(error.message);
    }
  }
  if (answered) return answered;
  throw new PlugboardError('UNREACHABLE', `No Plugboard service answered: ${failures.join(' ')}`, undefined, {
    action: 'Check the address and port the service printed at start ("api: https://…"), and that it runs.',
  });
}
