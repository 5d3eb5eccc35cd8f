/**
 * Groups of outlets across controllers: saving them and switching a whole group at once.
 */
import * as v from 'valibot';
import type { Group, GroupRunResult } from '../model';
import { call, id, name, outletRef, empty, confirmCritical } from './blocks';

export const groupCalls = {
  /** Every outlet group, in the order saved. */
  'groups/list': call(empty).returns<Group[]>(),
  /** Create (no id) or replace a group. */
  'groups/save': call(
    v.strictObject({
      id: v.optional(id),
      name,
      members: v.pipe(v.array(outletRef), v.minLength(1, 'add at least one outlet'), v.maxLength(256)),
    }),
  ).returns<Group>(),
  /** Delete a group; its outlets and controllers stay as they are. */
  'groups/remove': call(v.strictObject({ id })).returns<null>(),
  /**
   * On/off/cycle every outlet of a group: one request per controller, all controllers in parallel.
   * Off or cycle with a critical outlet needs `confirmCritical: true` (refused whole otherwise).
   */
  'groups/run': call(
    v.strictObject({ id, action: v.picklist(['on', 'off', 'cycle']), confirmCritical }),
  ).returns<GroupRunResult>(),
} as const;
