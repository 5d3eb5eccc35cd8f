/**
 * AutoPing, the unit's own watchdog: its items (addresses to ping, outlets to cycle when they stop answering).
 */
import * as v from 'valibot';
import type { AutopingItem } from '../model';
import { call, printable, controllerId, outletNumber, onController } from './blocks';

/** An AutoPing item's 1-based number and its editable fields (outlets 1-based). */
const autopingNumber = v.pipe(
  v.number('must be an item number'),
  v.integer('must be a whole item number'),
  v.minValue(1, 'items are numbered from 1'),
  v.maxValue(1000),
);

const autopingItemInput = v.strictObject({
  addresses: v.pipe(
    v.array(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/, 'must be a host name or IP address'),
      ),
    ),
    v.minLength(1, 'give at least one address to ping'),
    v.maxLength(8, 'at most 8 addresses'),
  ),
  outlets: v.pipe(v.array(outletNumber), v.maxLength(64)),
  enabled: v.boolean(),
  pingsBeforeEnabling: v.nullable(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(1000)),
  ),
  resumptionTrial: v.boolean(),
  script: v.pipe(v.string(), v.maxLength(64, 'is at most 64 characters'), printable),
});

export const autopingCalls = {
  /** AutoPing's items on a controller with their status; UNSUPPORTED_FIRMWARE when it has no AutoPing. */
  'autoping/list': call(onController).returns<AutopingItem[]>(),
  /**
   * Create an AutoPing item (no `number`) or replace item `number` (1-based, as listed); answers with
   * the list afterwards. Enabling or disabling is a save with `enabled` changed. Administrators only.
   */
  'autoping/save': call(
    v.strictObject({
      controllerId,
      number: v.optional(autopingNumber),
      item: autopingItemInput,
    }),
  ).returns<AutopingItem[]>(),
  /** Delete AutoPing item `number` (1-based); the items after it move up. Answers with the list afterwards. */
  'autoping/remove': call(v.strictObject({ controllerId, number: autopingNumber })).returns<AutopingItem[]>(),
} as const;
