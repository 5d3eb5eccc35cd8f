/**
 * pdudaemon's reboot done by Plugboard itself: switch the outlet off, wait `delay` seconds,
 * switch it on, and answer after the on. The wait and the on are a tracked operation (operations.ts), so
 * a Core that is told to stop during the wait still switches the outlet back on before it stops.
 */
import type { Actor, OutletActionResult } from '../../../src-preload/model';
import type { Operations } from './operations';
import { setOutlets } from './outlet-actions';
import type { SwitchPermit } from './switch-rules';
import type { ControllerSession } from '../session/session';

/** Default per-request limit when the Core was given none (the client's own default). */
const DEFAULT_REQUEST_MS = 10_000;

export async function cycleWithDelay(
  session: ControllerSession,
  permit: SwitchPermit,
  outlet: number,
  delaySeconds: number,
  actor: Actor,
  operations: Operations,
  requestTimeoutMs: number | undefined,
): Promise<OutletActionResult> {
  const off = await setOutlets(
    session,
    permit,
    [outlet],
    false,
    false,
    actor,
    `cycle: off for ${delaySeconds} s`,
  );
  // Refused (locked, no access): it was not switched off, so there is nothing to switch back on.
  if (off.failed.length > 0) return off;
  const waitMs = delaySeconds * 1000;
  const endsBy = session.now() + waitMs + 2 * (requestTimeoutMs ?? DEFAULT_REQUEST_MS);
  const what = `switch ${session.summary.name} outlet ${outlet} back on after ${delaySeconds} s`;
  const on = await operations.track(what, endsBy, async () => {
    await operations.wait(waitMs);
    // The cycle's own permit: a reservation someone takes during the wait must not leave the outlet off.
    return setOutlets(session, permit, [outlet], true, false, actor, `cycle: on after ${delaySeconds} s`);
  });
  const unconfirmed = [...(off.unconfirmed ?? []), ...(on.unconfirmed ?? [])];
  return {
    requested: [outlet],
    failed: on.failed,
    ...(unconfirmed.length ? { unconfirmed: [...new Set(unconfirmed)] } : {}),
  };
}
