/**
 * A controller's meters: the readings recorded over time, their CSV, and the meters outside their limits.
 */
import * as v from 'valibot';
import type { LimitBreach, MeterHistory } from '../model';
import { call, controllerId, empty, onController } from './blocks';

export const meterCalls = {
  /** The recorded readings of one meter (`key` as in `MeterReading.key`); NOT_FOUND when none were recorded. */
  'meters/history': call(
    v.strictObject({ controllerId, key: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) }),
  ).returns<MeterHistory>(),
  /** All meter history of a controller as CSV text (the UI saves it). */
  'meters/exportCsv': call(onController).returns<{ filename: string; csv: string }>(),
  /** Every meter now outside its saved limits; `meters/breaches` events follow changes. */
  'meters/breaches': call(empty).returns<LimitBreach[]>(),
} as const;
