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
