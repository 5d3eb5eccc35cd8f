/**
 * Which saved controller and outlet a pdudaemon request names: `hostname` is a controller's name or
 * alias (case-insensitive), `port` an outlet number as printed on the unit (1-based: outlet 1 is the
 * first; labgrid's own DLI backend counts from 0, pdudaemon's `port` here does not) or an outlet's name.
 */
import type { AppSnapshot, ControllerState, ControllerSummary, OutletState } from '../../src-preload/model';
import { capitalise, outletLabel } from '../../src-preload/words';
import { PduRefusal } from './pdudaemon-request';

export interface PduTarget {
  controller: ControllerSummary;
  /** The latest state the Core pushed (null before the first). */
  state: ControllerState | null;
  outlet: number;
  /** The outlet as last read, when it has been. */
  reading: OutletState | null;
}

const same = (a: string, b: string) => a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();

const quote = (text: string) => JSON.stringify(text.slice(0, 40));

export function findController(snapshot: AppSnapshot, hostname: string): ControllerSummary {
  const found =
    snapshot.controllers.find((c) => same(c.name, hostname)) ??
    snapshot.controllers.find((c) => c.alias !== undefined && same(c.alias, hostname));
  if (!found)
    throw new PduRefusal(404, `Unknown PDU ${quote(hostname)}: no saved controller has that name or alias.`);
  return found;
}

/** What an outlet is called in answers: `Outlet 3 (Router) on Bench A`. */
export function outletWords(target: PduTarget): string {
  return `${capitalise(outletLabel(target.outlet, target.reading?.name))} on ${target.controller.name}`;
}

export function resolveTarget(snapshot: AppSnapshot, hostname: string, port: string): PduTarget {
  const controller = findController(snapshot, hostname);
  const state = snapshot.states.find((s) => s.id === controller.id) ?? null;
  // A standby knows no outlet and switches nothing: its refusal names the service that leads.
  if (state?.problem?.code === 'STANDBY') throw new PduRefusal(503, state.problem.message);
  const outlets = state?.outlets ?? [];
  const known = outlets.length > 0;
  if (/^\d+$/.test(port)) {
    const outlet = Number(port);
    if (outlet < 1 || outlet > 64 || (known && outlet > outlets.length))
      throw new PduRefusal(
        404,
        `Unknown port ${quote(port)} on ${controller.name}: outlets are numbered 1 to ${known ? outlets.length : 'the unit’s count'}, as on its label (not from 0).`,
      );
    return { controller, state, outlet, reading: outlets.find((o) => o.number === outlet) ?? null };
  }
  if (!known)
    throw new PduRefusal(
      502,
      `${controller.name} has not been read yet (${state?.problem?.message ?? state?.status ?? 'connecting'}), so its outlet names are not known: give the outlet number.`,
    );
  const named = outlets.filter((o) => same(o.name.trim(), port));
  if (named.length !== 1)
    throw new PduRefusal(
      404,
      named.length === 0
        ? `Unknown port ${quote(port)} on ${controller.name}: no outlet has that name; give its number (1–${outlets.length}) or its name.`
        : `Port ${quote(port)} on ${controller.name} names ${named.length} outlets: give the outlet number instead.`,
    );
  const reading = named[0]!;
  return { controller, state, outlet: reading.number, reading };
}
