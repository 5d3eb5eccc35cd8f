/**
 * The app's settings.
 */
import * as v from 'valibot';
import type { Settings } from '../model';
import { call, printable, controllerId, outletNumber, empty, id } from './blocks';

const settingsInput = v.strictObject({
  pollIntervalMs: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(500, 'must be at least 500 ms'),
      v.maxValue(600_000, 'must be at most 10 minutes'),
    ),
  ),
  unitSafetyPollMs: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(5_000, 'must be at least 5 s'),
      v.maxValue(600_000, 'must be at most 10 minutes (a missed message would stay unseen that long)'),
    ),
  ),
  temperatureUnit: v.optional(v.picklist(['C', 'F'])),
  theme: v.optional(v.picklist(['system', 'light', 'dark'])),
  notifications: v.optional(
    v.strictObject({ offline: v.boolean(), outsideChanges: v.boolean(), meterThresholds: v.boolean() }),
  ),
  meterThresholds: v.optional(
    v.pipe(
      v.array(
        v.strictObject({
          controllerId,
          key: v.pipe(v.string(), v.minLength(1), v.maxLength(128), printable),
          min: v.nullable(v.pipe(v.number(), v.finite())),
          max: v.nullable(v.pipe(v.number(), v.finite())),
        }),
      ),
      v.maxLength(500),
    ),
  ),
  meterLimitHoldSeconds: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be whole seconds'),
      v.minValue(0, 'must be 0 s or more'),
      v.maxValue(3600, 'must be at most 3600 s'),
    ),
  ),
  /** This computer's outlets, and on a desk a lab's (`lab`: the lab's id). */
  trayFavourites: v.optional(
    v.pipe(
      v.array(v.strictObject({ controllerId, outlet: outletNumber, lab: v.optional(id) })),
      v.maxLength(64),
    ),
  ),
  startAtLogin: v.optional(v.boolean()),
  overviewCompact: v.optional(v.boolean()),
  activityRetentionDays: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1, 'must be at least 1 day'),
      v.maxValue(36_500, 'must be at most 100 years'),
    ),
  ),
});

export const settingsCalls = {
  /** The app's settings. */
  'settings/get': call(empty).returns<Settings>(),
  /** Change some settings (only the fields given); returns all of them as saved. */
  'settings/set': call(settingsInput).returns<Settings>(),
} as const;
