/**
 * The fleet inventory's rows, pure: from each saved controller's live state and what
 * was last known of it, one row; then drift — a firmware (or relay firmware) older than the newest seen
 * on another controller of the same model. Versions compare numerically, part by part (1.10.2 > 1.9.8).
 */
import type { ControllerState, ControllerSummary, InventoryRow } from '../../../src-preload/model';
import { csvDocument, utcCell } from '../../shared/csv';

/** What the inventory remembers of a controller from when it last answered. */
export type KnownFacts = Pick<
  InventoryRow,
  | 'model'
  | 'serial'
  | 'firmware'
  | 'relayFirmware'
  | 'sshEnabled'
  | 'userCount'
  | 'outletsOn'
  | 'outletCount'
  | 'lastSeen'
>;

/** < 0 when `a` is older than `b`, 0 when the same, > 0 when newer; numeric parts compare as numbers. */
export function compareVersions(a: string, b: string): number {
  const parts = (text: string): string[] =>
    text
      .trim()
      .split(/[.\-_ ]+/)
      .filter(Boolean);
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? '0';
    const y = right[i] ?? '0';
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    const order =
      Number.isNaN(nx) || Number.isNaN(ny) ? x.localeCompare(y, 'en', { numeric: true }) : nx - ny;
    if (order !== 0) return order;
  }
  return 0;
}

/** The facts a state holds now (null fields: not known from it). */
export function factsOf(state: ControllerState): KnownFacts {
  const identity = state.identity;
  const outlets = state.outlets;
  return {
    model: identity?.model ?? null,
    serial: identity?.serial ?? null,
    firmware: identity?.firmware ?? null,
    relayFirmware: identity?.relayFirmware ?? null,
    sshEnabled: state.sshEnabled,
    userCount: state.users ? state.users.length : null,
    outletsOn: outlets.length ? outlets.filter((o) => o.physicalState).length : null,
    outletCount: outlets.length ? outlets.length : null,
    lastSeen: state.lastUpdate,
  };
}

/** Each field from `now` when known there, else from `before`. */
export function mergeFacts(before: KnownFacts | undefined, now: KnownFacts): KnownFacts {
  if (!before) return now;
  const out = { ...now };
  for (const key of Object.keys(now) as (keyof KnownFacts)[]) {
    if (out[key] === null) (out as Record<string, unknown>)[key] = before[key];
  }
  return out;
}

/** One row per controller, in the order given, with drift marked. */
export function inventoryRows(
  controllers: readonly {
    summary: ControllerSummary;
    state: ControllerState;
    known: KnownFacts | undefined;
  }[],
): InventoryRow[] {
  const rows: InventoryRow[] = controllers.map(({ summary, state, known }) => {
    const online = state.status === 'online';
    const facts = online
      ? mergeFacts(known, factsOf(state))
      : mergeFacts(factsOf(state), known ?? factsOf(state));
    const anything = Object.values(facts).some((value) => value !== null);
    return {
      controllerId: summary.id,
      name: summary.name,
      status: state.status,
      stale: !online && anything,
      ...facts,
      firmwareBehind: null,
      relayFirmwareBehind: null,
    };
  });
  const newest = (field: 'firmware' | 'relayFirmware'): Map<string, string> => {
    const byModel = new Map<string, string>();
    for (const row of rows) {
      const version = row[field];
      if (row.model === null || version === null) continue;
      const best = byModel.get(row.model);
      if (best === undefined || compareVersions(version, best) > 0) byModel.set(row.model, version);
    }
    return byModel;
  };
  const firmware = newest('firmware');
  const relay = newest('relayFirmware');
  for (const row of rows) {
    if (row.model === null) continue;
    const best = firmware.get(row.model);
    if (row.firmware !== null && best !== undefined && compareVersions(row.firmware, best) < 0)
      row.firmwareBehind = best;
    const bestRelay = relay.get(row.model);
    if (
      row.relayFirmware !== null &&
      bestRelay !== undefined &&
      compareVersions(row.relayFirmware, bestRelay) < 0
    )
      row.relayFirmwareBehind = bestRelay;
  }
  return rows;
}

const yesNo = (value: boolean | null): string => (value === null ? '' : value ? 'on' : 'off');

/** The inventory as CSV: one row per controller; empty cells are not known. */
export function inventoryCsv(rows: readonly InventoryRow[]): string {
  return csvDocument(
    [
      'controller',
      'status',
      'last_known',
      'model',
      'serial',
      'firmware',
      'newer_firmware_on_model',
      'relay_firmware',
      'newer_relay_firmware_on_model',
      'ssh',
      'users',
      'outlets_on',
      'outlets',
      'last_seen',
    ],
    rows.map((r) => [
      r.name,
      r.status,
      r.stale ? 'yes' : 'no',
      r.model ?? '',
      r.serial ?? '',
      r.firmware ?? '',
      r.firmwareBehind ?? '',
      r.relayFirmware ?? '',
      r.relayFirmwareBehind ?? '',
      yesNo(r.sshEnabled),
      r.userCount,
      r.outletsOn,
      r.outletCount,
      utcCell(r.lastSeen),
    ]),
  );
}
