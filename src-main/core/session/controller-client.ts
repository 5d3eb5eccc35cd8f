/** The client of a saved controller: its credentials from the saved summary and secret, and the one DliClient. */
import type { ControllerSummary } from '../../../src-preload/model';
import { DliClient } from '../../dli/client';
import { credentialsFor } from '../../shared/credentials';

/** The one client of a saved controller (one per controller, so its digest nonce is reused). */
export function newClient(
  summary: ControllerSummary,
  secret: string | null,
  firmware: string | undefined,
  timeoutMs: number | undefined,
  beforeWrite?: () => void,
): DliClient {
  return new DliClient({
    url: summary.url,
    credentials: credentialsFor(summary, secret),
    name: summary.name,
    fingerprint: summary.fingerprint,
    // Known from an earlier connect: gated calls then need no extra read.
    ...(firmware ? { firmware } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    // The Core's leadership: a service that does not lead sends no change to a unit.
    ...(beforeWrite ? { beforeWrite } : {}),
  });
}
