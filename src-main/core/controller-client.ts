/** The client of a saved controller: its credentials from the saved summary and secret, and the one DliClient. */
import type { ControllerSummary } from '../../src-preload/model';
import { DliClient } from '../dli/client';
import type { Credentials } from '../shared/credentials';
import { PlugboardError } from '../shared/errors';

/** The client's credentials for a saved controller and its secret; AUTH_FAILED when there is no secret. */
export function credentialsFor(summary: ControllerSummary, secret: string | null): Credentials {
  if (secret === null || secret === '') {
    const what = summary.auth === 'token' ? 'access token' : `password for user "${summary.user}"`;
    throw new PlugboardError(
      'AUTH_FAILED',
      `No ${what} is available for ${summary.name}: it is not in the keychain. Enter it again in the controller's System tab (Connection).`,
    );
  }
  if (summary.auth === 'token') return { kind: 'token', token: secret };
  return { kind: summary.auth, user: summary.user, password: secret };
}

/** The one client of a saved controller (one per controller, so its digest nonce is reused). */
export function newClient(
  summary: ControllerSummary,
  secret: string | null,
  firmware: string | undefined,
  timeoutMs: number | undefined,
): DliClient {
  return new DliClient({
    url: summary.url,
    credentials: credentialsFor(summary, secret),
    name: summary.name,
    fingerprint: summary.fingerprint,
    // Known from an earlier connect: gated calls then need no extra read.
    ...(firmware ? { firmware } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
}
