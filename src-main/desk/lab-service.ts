/**
 * What a desk asks a lab's services over HTTP, with the same pinned trust as the remote link (nothing
 * is sent before the certificate matches): their status (is a Plugboard service there, its name, who
 * leads, how one signs in), sign-in and sign-out. A password and a session go nowhere but these requests.
 */
import { ERROR_CODES, type ErrorCode } from '../../src-preload/model';
import { answerError, didNotAnswer, getFromService, type ServiceAnswer } from '../link/service-post';
import { originOf, type ServiceAddress } from '../link/service-address';
import { isPlugboardError, PlugboardError } from '../shared/errors';

export { didNotAnswer, postToLab } from '../link/service-post';

/** `GET /api/v1/status` as a desk reads it. */
export interface ServiceStatus {
  /** The service's name (`--name`), or null when it gives none. */
  service: string | null;
  role: 'leader' | 'standby' | null;
  leaderAddress: string | null;
  /** Sign-in through the lab's identity provider, when the service offers one. */
  provider: { label: string } | null;
}

export interface SignedIn {
  token: string;
  account: { name: string; displayName: string; role: string };
}

/** The status of the service at `address`: answered by a Plugboard service, or a PlugboardError. */
export async function serviceStatus(address: ServiceAddress, token?: string): Promise<ServiceStatus> {
  const answer = await getFromService(address.url, '/api/v1/status', {
    fingerprint: address.fingerprint,
    token,
  });
  const body = answer.json as Record<string, unknown> | null;
  if (answer.status === 200 && body && (body['role'] === 'leader' || body['role'] === 'standby')) {
    const signIn = body['signIn'] as { provider?: { label?: unknown } | null } | undefined;
    const label = signIn?.provider?.label;
    return {
      service: typeof body['service'] === 'string' ? body['service'] : null,
      role: body['role'],
      leaderAddress: typeof body['leaderAddress'] === 'string' ? body['leaderAddress'] : null,
      provider: typeof label === 'string' ? { label } : null,
    };
  }
  const error = answerError(answer.json);
  // A service that wants a token to say more is still a Plugboard service answering.
  if (answer.status === 401 && error && !token)
    return { service: null, role: null, leaderAddress: null, provider: null };
  throw refusalOf(answer, address.url);
}

/** An answer that is not the one wanted, as the service's own refusal (or "not a Plugboard service"). */
export function refusalOf(answer: ServiceAnswer, where: string): PlugboardError {
  const error = answerError(answer.json);
  if (!error)
    return new PlugboardError(
      'NOT_A_CONTROLLER',
      `Something answered at ${where} (HTTP ${answer.status}), but not a Plugboard service.`,
      undefined,
      { action: 'Give the service\'s api listener address, as it printed at start ("api: https://…").' },
    );
  const known = (ERROR_CODES as readonly string[]).includes(error.code);
  const code: ErrorCode =
    answer.status === 401 ? 'AUTH_FAILED' : known ? (error.code as ErrorCode) : 'DEVICE_ERROR';
  return new PlugboardError(code, error.message, undefined, error.action ? { action: error.action } : {});
}

/** A host on this machine: a password may go to it over plain HTTP. */
export function isLoopbackUrl(url: string): boolean {
  const host = URL.canParse(url) ? new URL(url).hostname.replace(/^\[|\]$/g, '') : '';
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * The leader among a lab's services (a standby's status names it, when the lab has its address), else
 * the first that answers; UNREACHABLE naming each when none does. A refused session throws AUTH_FAILED.
 */
export async function leadingService(
  lab: string,
  addresses: readonly ServiceAddress[],
  token: string,
): Promise<{ address: ServiceAddress; provider: { label: string } | null }> {
  const failures: string[] = [];
  let fallback: ServiceAddress | null = null;
  let provider: { label: string } | null = null;
  for (const address of addresses) {
    let status: ServiceStatus;
    try {
      status = await serviceStatus(address, token);
    } catch (error) {
      if (!didNotAnswer(error)) throw error;
      failures.push(`${address.url}: ${(error as Error).message}`);
      continue;
    }
    provider = status.provider ?? provider;
    if (status.role !== 'standby') return { address, provider };
    fallback ??= address;
    const named = status.leaderAddress;
    const leader = named ? addresses.find((a) => originOf(a.url) === originOf(named)) : undefined;
    if (!leader || leader === address) continue;
    const led = await serviceStatus(leader, token).catch((error: unknown) => {
      if (!didNotAnswer(error)) throw error;
      return null;
    });
    if (led && led.role !== 'standby') return { address: leader, provider };
  }
  if (fallback) return { address: fallback, provider };
  throw new PlugboardError('UNREACHABLE', `No service of the lab ${lab} answered (${failures.join('; ')}).`);
}

/** Why a lab is offline: the status's problem. */
export function offline(lab: string, error: unknown): PlugboardError {
  const why = (error instanceof Error ? error.message : String(error)).replace(/[.\s]+$/, '');
  return new PlugboardError(
    isPlugboardError(error) ? error.code : 'UNREACHABLE',
    `The lab ${lab} cannot be reached (${why}); what it shows is what was last known.`,
    undefined,
    { action: 'Plugboard connects again by itself; check that the lab service runs.' },
  );
}

/** A call refused while the lab cannot be reached. */
export function unreachable(lab: string): PlugboardError {
  return new PlugboardError(
    'UNREACHABLE',
    `The lab ${lab} cannot be reached now, so nothing was sent to it.`,
    undefined,
    { action: 'Plugboard connects again by itself; try again once the lab shows online.' },
  );
}
