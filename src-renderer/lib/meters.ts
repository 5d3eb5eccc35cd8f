import type { MeterReading, MeterThreshold, Settings } from '../../src-preload/model';
import { convertTemperature } from './format';

const ORDER: MeterReading['quantity'][] = [
  'voltage',
  'current',
  'power',
  'energy',
  'temperature',
  'humidity',
  'other',
];

/** Tiles in the order a technician scans them: supply first, then environment. */
export function sortReadings(readings: MeterReading[]): MeterReading[] {
  return [...readings].sort(
    (a, b) => ORDER.indexOf(a.quantity) - ORDER.indexOf(b.quantity) || (a.bus ?? -1) - (b.bus ?? -1),
  );
}

/** A value in the unit the person sees (°F when chosen); thresholds are stored in canonical units. */
export function toDisplay(
  value: number,
  reading: Pick<MeterReading, 'unit'>,
  unit: Settings['temperatureUnit'],
): number {
  return reading.unit === '°C' ? convertTemperature(value, unit) : value;
}

/** The inverse of `toDisplay`, for limits typed by a person. */
export function fromDisplay(
  value: number,
  reading: Pick<MeterReading, 'unit'>,
  unit: Settings['temperatureUnit'],
): number {
  return reading.unit === '°C' && unit === 'F' ? ((value - 32) * 5) / 9 : value;
}

/** "above" or "below" when a reading is outside its limits, else null. */
export function breach(
  reading: MeterReading,
  threshold: MeterThreshold | undefined,
): 'above' | 'below' | null {
  if (!threshold || reading.value === null) return null;
  if (threshold.max !== null && reading.value > threshold.max) return 'above';
  if (threshold.min !== null && reading.value < threshold.min) return 'below';
  return null;
}
