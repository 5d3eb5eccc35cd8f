/**
 * A controller's outlets: switching (saved or temporary), cycling, renaming and their own settings.
 */
import * as v from 'valibot';
import type { OutletActionResult } from '../model';
import {
  call,
  controllerId,
  outletNumber,
  cycleDelaySeconds,
  outletSelection,
  name,
  cycleWaitSeconds,
  confirmCritical,
} from './blocks';

export const outletCalls = {
  /**
   * Saved (persistent) or, with `transient`, temporary on/off of one, several or all outlets: one
   * request. Saved: a (matrix) PUT of `state`, per-outlet refusals in `failed`. Temporary on several
   * listed outlets: the unit's simultaneous switch (`set_outlet_transient_states`), all or nothing.
   * Off on a critical outlet needs `confirmCritical: true` (so do a cycle and an off in `outlets/switch`).
   */
  'outlets/set': call(
    v.strictObject({
      controllerId,
      outlets: outletSelection,
      on: v.boolean(),
      transient: v.optional(v.boolean()),
      confirmCritical,
    }),
  ).returns<OutletActionResult>(),
  /**
   * Power-cycle one outlet (off, wait the cycle delay, on). With `delay` (whole seconds 0–300), Plugboard
   * itself switches it off, waits that long and switches it on, answering after the on (pdudaemon's
   * reboot); a Core that stops meanwhile still switches it back on first.
   */
  'outlets/cycle': call(
    v.strictObject({
      controllerId,
      outlet: outletNumber,
      delay: v.optional(cycleWaitSeconds),
      confirmCritical,
    }),
  ).returns<OutletActionResult>(),
  /**
   * Switch several outlets, each to its own state. Temporary (transient states, the default here: the
   * unit's simultaneous switch, as simultaneously as the firmware allows), or with `transient: false`
   * saved (persistent states: one matrix PUT of `state` per target value, at most two requests).
   */
  'outlets/switch': call(
    v.strictObject({
      controllerId,
      changes: v.pipe(
        v.array(v.strictObject({ outlet: outletNumber, on: v.boolean() })),
        v.minLength(1, 'select at least one outlet'),
        v.maxLength(64),
      ),
      transient: v.optional(v.boolean()),
      confirmCritical,
    }),
  ).returns<OutletActionResult>(),
  /** Rename an outlet on the controller itself (administrators only); the new name shows at once. */
  'outlets/rename': call(v.strictObject({ controllerId, outlet: outletNumber, name })).returns<null>(),
  /**
   * Change an outlet's own settings on the controller (administrators only): `cycleDelay` in whole
   * seconds (1–3600; null = use the relay's cycle delay) and `critical` (it then goes off or cycles
   * only with `confirmCritical: true`, which the window and the tray ask the person for). What is left out stays; the new values show at once.
   */
  'outlets/configure': call(
    v.strictObject({
      controllerId,
      outlet: outletNumber,
      cycleDelay: v.optional(v.nullable(cycleDelaySeconds)),
      critical: v.optional(v.boolean()),
    }),
  ).returns<null>(),
} as const;
