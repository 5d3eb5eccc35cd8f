/**
 * Meter readings in canonical units, converted exactly as the controller states it converts them, so
 * Plugboard's numbers match the controller's own pages:
 *   kWh = J × 0.00000027778,  °C = K − 273.16,  °F = 9/5 × (K − 273.16) + 32.
 */
import type * as v from 'valibot';
import type { MeterQuantity, MeterReading } from '../../src-preload/model';
import type { meterEntrySchema } from './schemas';

export const JOULES_TO_KWH = 0.00000027778;
export const KELVIN_OFFSET = 273.16;
/** Zero current is reported as a float32 denormal (~1.4e-45); anything this small is zero. */
export const CURRENT_EPSILON = 1e-6;

export function joulesToKwh(joules: number): number {
  return joules * JOULES_TO_KWH;
}

export function kelvinToCelsius(kelvin: number): number {
  return kelvin - KELVIN_OFFSET;
}

export function kelvinToFahrenheit(kelvin: number): number {
  return (9 / 5) * (kelvin - KELVIN_OFFSET) + 32;
}

/** The same as `kelvinToFahrenheit` for a value already in °C (as MeterReading holds it). */
export function celsiusToFahrenheit(celsius: number): number {
  return (9 / 5) * celsius + 32;
}

type MeterEntry = v.InferOutput<typeof meterEntrySchema>;

const BY_SUFFIX: [RegExp, MeterQuantity][] = [
  [/(^|[._])voltage$/i, 'voltage'],
  [/(^|[._])current$/i, 'current'],
  [/(^|[._])(total_)?energy$/i, 'energy'],
  [/(^|[._])power$/i, 'power'],
  [/(^|[._])temperature$/i, 'temperature'],
  [/(^|[._])(relative_)?humidity$/i, 'humidity'],
];

function quantityOf(key: string, stated: string | null): MeterQuantity {
  const text = (stated ?? '').toLowerCase();
  for (const [pattern, quantity] of BY_SUFFIX) if (pattern.test(text) || pattern.test(key)) return quantity;
  return 'other';
}

const UNIT: Record<MeterQuantity, MeterReading['unit']> = {
  voltage: 'V',
  current: 'A',
  energy: 'kWh',
  power: 'W',
  temperature: '°C',
  humidity: '%',
  other: '',
};

function busOf(key: string, stated: number | null): number | null {
  if (stated !== null) return stated;
  const match = /^bus(?:es)?\.(\d+)\./.exec(key);
  return match?.[1] ? Number(match[1]) : null;
}

function convert(quantity: MeterQuantity, raw: number | null): number | null {
  if (raw === null || !Number.isFinite(raw)) return null;
  switch (quantity) {
    case 'energy':
      return joulesToKwh(raw);
    case 'temperature':
      return kelvinToCelsius(raw);
    case 'current':
      return Math.abs(raw) < CURRENT_EPSILON ? 0 : raw;
    default:
      return raw;
  }
}

function defaultName(key: string): string {
  return key.replace(/[._]/g, ' ').replace(/\b(\d+)\b/g, (n) => String(Number(n) + 1));
}

/** `meter/values/` (a map keyed by id) → readings, sorted by key. */
export function meterReadings(values: Record<string, MeterEntry>): MeterReading[] {
  return Object.entries(values)
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([key, entry]) => {
      const object = entry !== null && typeof entry === 'object' ? entry : null;
      const raw = object ? object.value : (entry as number | null);
      const quantity = quantityOf(key, object?.quantity ?? null);
      return {
        key,
        name: object?.name || defaultName(key),
        quantity,
        bus: busOf(key, object?.bus ?? null),
        value: convert(quantity, raw),
        unit: UNIT[quantity],
      };
    });
}
