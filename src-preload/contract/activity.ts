/**
 * The activity log: listing it, filtered, and exporting it as CSV or JSON lines.
 */
import * as v from 'valibot';
import type { ActivityEntry } from '../model';
import { ACTIVITY_DOORS } from '../model';
import { call, printable, controllerId, outletNumber } from './blocks';

/**
 * Activity filters, shared by `activity/list` and `activity/export`: one controller (or, with '', the
 * entries about the lab service itself),
 * outlet number or outlet name (case-insensitive, as recorded at the time), person (`who`,
 * case-insensitive), door, and a time span [`since`, `until`] in epoch ms; `after` an id and `order`
 * let a reader go through a long log page by page (the lab store keeps every entry of its retention).
 */
const activityFilter = {
  /** One controller's entries; '' the lab service's own (sign-ins, accounts, refused calls). */
  controllerId: v.optional(v.union([v.literal(''), controllerId])),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  outlet: v.optional(outletNumber),
  outletName: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), printable)),
  who: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), printable)),
  door: v.optional(v.picklist(ACTIVITY_DOORS)),
  since: v.optional(v.pipe(v.number(), v.finite())),
  until: v.optional(v.pipe(v.number(), v.finite())),
  /** Only entries after this one (its id): a reader's cursor, page by page. */
  after: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  /** `newest` first (the default) or `oldest` first; `limit` takes from that end. */
  order: v.optional(v.picklist(['newest', 'oldest'])),
};

export const activityCalls = {
  /**
   * The activity log, newest first: all controllers or one, at most `limit` entries (default: all kept);
   * optionally only one outlet (number or name), one person (`who`, case-insensitive), one door, or a
   * time span (`since`, `until`, epoch ms).
   */
  'activity/list': call(v.strictObject(activityFilter)).returns<ActivityEntry[]>(),
  /** The activity log (filtered as `activity/list`, oldest first) as CSV or JSON lines, with a file name. */
  'activity/export': call(
    v.strictObject({ ...activityFilter, format: v.picklist(['csv', 'jsonl']) }),
  ).returns<{ filename: string; text: string }>(),
} as const;
