/**
 * A controller's system (administrators only): SSH, the relay's timing, reboot, and its API tree.
 */
import * as v from 'valibot';
import type { TreeNode } from '../model';
import { call, controllerId, cycleDelaySeconds, onController } from './blocks';

export const systemCalls = {
  /** Switch the controller's SSH server on or off (administrators only). */
  'system/setSsh': call(v.strictObject({ controllerId, enabled: v.boolean() })).returns<null>(),
  /**
   * Change the relay's timing (administrators only), in whole seconds: the default `cycleDelay` (1–3600)
   * and the on-sequence `sequenceDelay` (0–60). What is left out stays; the state's `relayTiming` is read
   * again afterwards.
   */
  'system/setRelayTiming': call(
    v.strictObject({
      controllerId,
      cycleDelay: v.optional(cycleDelaySeconds),
      sequenceDelay: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60))),
    }),
  ).returns<null>(),
  /** Reboot; the state goes `rebooting` until the controller answers again. */
  'system/reboot': call(onController).returns<null>(),
  /** Browse the API tree: `path` below `/restapi/`, depth-limited. */
  'system/tree': call(
    v.strictObject({
      controllerId,
      path: v.pipe(v.string(), v.maxLength(512), v.regex(/^[^?#]*$/, 'may not contain ? or #')),
      depth: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8)),
    }),
  ).returns<TreeNode>(),
} as const;
