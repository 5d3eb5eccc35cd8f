/**
 * Meter ids that changed under Plugboard's feet. Saved limits and kept history are keyed by meter id,
 * and the same meter can appear under another id (rest.html's `buses.0.voltage` on one firmware, a
 * platform-specific `power_voltage` in DLI's object model, reference §13). An id that disappeared is
 * matched to a new one by the meter's name, else by its quantity and bus when exactly one new meter
 * fits; what cannot be matched is said, never silently lost.
 */
import type { ControllerSummary, MeterReading, MeterThreshold } from '../../../src-preload/model';
import { busOf, quantityOf, UNIT } from '../../dli/meters';
import { SYSTEM_ACTOR, type NewActivity } from '../activity/activity-log';
import type { MeterSeries } from './meter-history';

/** What is known about a meter under its old id: the id, and its name and unit when history has them. */
export interface OldMeter {
  key: string;
  name?: string | null;
  unit?: MeterReading['unit'] | null;
}

export interface IdMoves {
  /** Old id → new id. */
  moved: [string, string][];
  /** Old ids no meter of this read matches. */
  dropped: string[];
}

/**
 * Match old ids missing from `readings` to readings whose ids are new (not among `known`). Each new id
 * is given at most once; ambiguous matches are not guessed.
 */
export function matchMeterIds(
  old: readonly OldMeter[],
  readings: readonly MeterReading[],
  known: ReadonlySet<string>,
): IdMoves {
  const present = new Set(readings.map((r) => r.key));
  const fresh = readings.filter((r) => !known.has(r.key));
  const taken = new Set<string>();
  const result: IdMoves = { moved: [], dropped: [] };
  for (const meter of old) {
    if (present.has(meter.key)) continue;
    const open = fresh.filter((r) => !taken.has(r.key));
    const name = meter.name?.trim().toLowerCase();
    const unit = meter.unit ?? UNIT[quantityOf(meter.key, null)];
    const bus = busOf(meter.key, null);
    const byName = name ? open.filter((r) => r.name.trim().toLowerCase() === name && r.unit === unit) : [];
    const byKind = open.filter(
      (r) => r.unit === unit && unit !== '' && (bus === null || r.bus === null || r.bus === bus),
    );
    const match = byName.length === 1 ? byName[0] : byKind.length === 1 ? byKind[0] : undefined;
    if (match) {
      taken.add(match.key);
      result.moved.push([meter.key, match.key]);
    } else {
      result.dropped.push(meter.key);
    }
  }
  return result;
}

/** Move kept history to the new ids before `readings` are added; old series nothing matches stay as they are. */
export function carryHistory(series: MeterSeries, readings: readonly MeterReading[]): [string, string][] {
  const present = new Set(readings.map((r) => r.key));
  const keys = series.keys();
  if (keys.every((key) => present.has(key))) return [];
  const old = keys.map((key) => ({ key, ...series.meta(key) }));
  const { moved } = matchMeterIds(old, readings, new Set(keys));
  for (const [from, to] of moved) series.rename(from, to);
  return moved;
}

/**
 * This controller's saved limits after a meter read: moved to new ids, or dropped when no meter matches.
 * null when nothing changes. `historyMoves` (old → new id, as `carryHistory` found them by name) are
 * taken first.
 */
export function carryThresholds(
  thresholds: readonly MeterThreshold[],
  controllerId: string,
  readings: readonly MeterReading[],
  historyMoves: ReadonlyMap<string, string> = new Map(),
): { next: MeterThreshold[]; moves: IdMoves } | null {
  const present = new Set(readings.map((r) => r.key));
  const mine = thresholds.filter((t) => t.controllerId === controllerId);
  if (readings.length === 0 || mine.every((t) => present.has(t.key))) return null;
  const moves: IdMoves = { moved: [], dropped: [] };
  const rest: OldMeter[] = [];
  for (const t of mine) {
    if (present.has(t.key)) continue;
    const to = historyMoves.get(t.key);
    if (to !== undefined && present.has(to) && !mine.some((other) => other.key === to))
      moves.moved.push([t.key, to]);
    else rest.push({ key: t.key });
  }
  const known = new Set([...mine.map((t) => t.key), ...moves.moved.map(([, to]) => to)]);
  const matched = matchMeterIds(rest, readings, known);
  moves.moved.push(...matched.moved);
  moves.dropped.push(...matched.dropped);
  const to = new Map(moves.moved);
  const dropped = new Set(moves.dropped);
  const next = thresholds
    .filter((t) => t.controllerId !== controllerId || !dropped.has(t.key))
    .map((t) => (t.controllerId === controllerId && to.has(t.key) ? { ...t, key: to.get(t.key)! } : t));
  return { next, moves };
}

/** Activity entries saying which limits moved and which were dropped, and why. */
export function thresholdEntries(
  summary: Pick<ControllerSummary, 'id' | 'name'>,
  moves: IdMoves,
  readings: readonly MeterReading[],
): NewActivity[] {
  const base = {
    controllerId: summary.id,
    controllerName: summary.name,
    outlet: null,
    actor: SYSTEM_ACTOR,
  };
  const nameOf = (key: string) => readings.find((r) => r.key === key)?.name ?? key;
  return [
    ...moves.moved.map(([from, to]): NewActivity => ({
      ...base,
      action: `meter limit for ${from} moved to ${to} ("${nameOf(to)}"): the controller reports that meter under a new id`,
      result: 'ok',
      error: null,
    })),
    ...moves.dropped.map((key): NewActivity => ({
      ...base,
      action: `meter limit for ${key} dropped`,
      result: 'error',
      error: {
        code: 'NOT_FOUND',
        message: `${summary.name} no longer reports meter ${key}, and none of its meters (${readings.map((r) => r.key).join(', ')}) clearly matches it, so its limit was dropped.`,
        action: 'Set the limit again on the meter it belongs to, under Meters.',
      },
    })),
  ];
}

export interface LimitCarrierPorts {
  /** The thresholds as last read (a cheap check before taking the settings lock). */
  thresholds(): readonly MeterThreshold[];
  replaceMeterThresholds(
    decide: (thresholds: readonly MeterThreshold[]) => MeterThreshold[] | null,
  ): Promise<unknown>;
  record(entry: NewActivity): void;
  log(message: string): void;
}

/**
 * After each meter read: carry this controller's saved limits over to changed meter ids and record
 * what moved or was dropped. One update per controller at a time.
 */
export function meterLimitCarrier(
  ports: LimitCarrierPorts,
): (
  summary: Pick<ControllerSummary, 'id' | 'name'>,
  readings: readonly MeterReading[],
  historyMoves: ReadonlyMap<string, string>,
) => void {
  const busy = new Set<string>();
  return (summary, readings, historyMoves) => {
    if (busy.has(summary.id) || readings.length === 0) return;
    if (carryThresholds(ports.thresholds(), summary.id, readings, historyMoves) === null) return;
    busy.add(summary.id);
    let moves: IdMoves | null = null;
    ports
      .replaceMeterThresholds((thresholds) => {
        const carried = carryThresholds(thresholds, summary.id, readings, historyMoves);
        moves = carried?.moves ?? null;
        return carried?.next ?? null;
      })
      .then(() => {
        if (moves) for (const entry of thresholdEntries(summary, moves, readings)) ports.record(entry);
      })
      .catch((error: unknown) =>
        ports.log(`meter limits of ${summary.name} could not be carried over: ${String(error)}`),
      )
      .finally(() => busy.delete(summary.id));
  };
}
