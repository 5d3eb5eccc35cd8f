/**
 * The fleet inventory: one row per saved controller, as rows or as CSV.
 */
import * as v from 'valibot';
import type { InventoryRow } from '../model';
import { call, empty } from './blocks';

export const fleetCalls = {
  /**
   * One row per saved controller: model, serial, firmware, relay firmware, SSH, user count, outlets on,
   * last seen, and drift (a newer firmware seen on the same model). Answers at once with what is known
   * (offline controllers: their last known values, `stale`); users and SSH not read yet are read in the
   * background (a few controllers at a time) and arrive as `state/changed`. `wait`: first connect every
   * controller and read what is missing (the CLI), bounded by `timeoutMs` (default 20 s).
   */
  'fleet/inventory': call(
    v.strictObject({
      wait: v.optional(v.boolean()),
      timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(120_000))),
    }),
  ).returns<InventoryRow[]>(),
  /** The inventory as CSV (RFC 4180, times in UTC, formula-safe cells), with a file name to save it as. */
  'fleet/inventoryCsv': call(empty).returns<{ filename: string; text: string }>(),
} as const;
