/**
 * pdudaemon's reboot done by Plugboard itself: switch the outlet off, wait `delay` seconds,
 * switch it on, and answer after the on. The wait and the on are a tracked operation (operations.ts), so
 * a Core that is told to stop during the wait still switches the outlet back on before it stops. A
 * process killed during the wait cannot: the promise to switch it on is kept in the lab store from
 * before the off until the on was sent (promised-switches.ts), for the next Core to report.
 */
import type { Actor, OutletActionResult } from '../../../src-preload/model';
import type { Operations } from './operations';
import type { PromiseKeeper } from './promised-switches';
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
  promises: PromiseKeeper,
): Promise<OutletActionResult> {
  const label = `cycle: off for ${delaySeconds} s`;
  const waitMs = delaySeconds * 1000;
  const promised = await promises.promise({
    controller_id: session.summary.id,
    controller_name: session.summary.name,
    outlet,
    outlet_name: session.lastOutlets?.find((o) => o.number === outlet)?.name ?? null,
    what: label,
    door: actor.door,
    who: actor.who,
    asked_at: session.now(),
    due_at: session.now() + waitMs,
  });
  let off: OutletActionResult;
  try {
    off = await setOutlets(session, permit, [outlet], false, false, actor, label);
  } catch (error) {
    await promises.settle(promised);
    throw error;
  }
  // Refused (locked, no access): it was not switched off, so there is nothing to switch back on.
  if (off.failed.length > 0) {
    await promises.settle(promised);
    return off;
  }
  const endsBy = session.now() + waitMs + 2 * (requestTimeoutMs ?? DEFAULT_REQUEST_MS);
  const what = `switch ${session.summary.name} outlet ${outlet} back on after ${delaySeconds} s`;
  const on = await operations.track(what, endsBy, async () => {
    try {
      await operations.wait(waitMs);
      // The cycle's own permit: a reservation someone takes during the wait must not leave the outlet off.
      return await setOutlets(
        session,
        permit,
        [outlet],
        true,
        false,
        actor,
        `cycle: on after ${delaySeconds} s`,
      );
    } finally {
      await promises.settle(promised);
    }
  });
  const unconfirmed = [...(off.unconfirmed ?? []), ...(on.unconfirmed ?? [])];
  return {
    requested: [outlet],
    failed: on.failed,
    ...(unconfirmed.length ? { unconfirmed: [...new Set(unconfirmed)] } : {}),
  };
}
