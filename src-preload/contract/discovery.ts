/**
 * Finding controllers on the network (mDNS, SSDP, a bounded address range) to add.
 */
import * as v from 'valibot';
import { call, id } from './blocks';

export const discoveryCalls = {
  /** Look for controllers: mDNS, SSDP and/or a bounded address range (≤ 256 addresses). Progress comes as events. */
  'discovery/start': call(
    v.strictObject({
      mdns: v.boolean(),
      ssdp: v.boolean(),
      range: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    }),
  ).returns<{ runId: string }>(),
  /** Stop a discovery run; what it found so far stays in its last progress event. */
  'discovery/stop': call(v.strictObject({ runId: id })).returns<null>(),
} as const;
