/**
 * Meter readings in canonical units, converted exactly as the controller states it converts them, so
 * Plugboard's numbers match the controller's own pages:
 *   kWh = J × 0.00000027778,  °C = K − 273.16,  °F = 9/5 × (K − 273.16) + 32.
 */
import type { MeterQuantity, MeterReading } from '../../src-preload/model';
import { neutralise, TEXT_LIMITS } from '../shared/text';

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

const BY_SUFFIX: [RegExp, MeterQuantity][] = [
  [/(^|[._])voltage$/i, 'voltage'],
  [/(^|[._])current$/i, 'current'],
  [/(^|[._])(total_)?energy$/i, 'energy'],
  [/(^|[._])power$/i, 'power'],
  [/(^|[._])temperature$/i, 'temperature'],
  [/(^|[._])(relative_)?humidity$/i, 'humidity'],
];

export function quantityOf(key: string, stated: string | null): MeterQuantity {
  const text = (stated ?? '').toLowerCase();
  for (const [pattern, quantity] of BY_SUFFIX) if (pattern.test(text) || pattern.test(key)) return quantity;
  return 'other';
}

export const UNIT: Record<MeterQuantity, MeterReading['unit']> = {
  voltage: 'V',
  current: 'A',
  energy: 'kWh',
  power: 'W',
  temperature: '°C',
  humidity: '%',
  other: '',
};

export function busOf(key: string, stated: number | null): number | null {
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

/** Fields of a meter entry Plugboard reads itself; every other field is kept as sent (`fields`). */
const KNOWN_FIELDS = new Set(['name', 'value', 'quantity', 'bus', 'internal']);

export interface MeterReadOptions {
  /** Include entries the controller marks `internal: true` (hidden by default, as on its own pages). */
  internal?: boolean;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? neutralise(value, TEXT_LIMITS.unitName) : null;
const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** One entry, whatever its shape: anything but a finite number as its value is "no reading" (null). */
function reading(key: string, entry: unknown): MeterReading {
  const object =
    entry !== null && typeof entry === 'object' && !Array.isArray(entry)
      ? (entry as Record<string, unknown>)
      : null;
  const raw = finite(object ? object.value : entry);
  const quantity = quantityOf(key, text(object?.quantity));
  const result: MeterReading = {
    key,
    name: text(object?.name) ?? defaultName(key),
    quantity,
    bus: busOf(key, finite(object?.bus)),
    value: convert(quantity, raw),
    unit: UNIT[quantity],
  };
  if (object?.internal === true) result.internal = true;
  const extra = object ? Object.entries(object).filter(([field]) => !KNOWN_FIELDS.has(field)) : [];
  if (extra.length) result.fields = Object.fromEntries(extra);
  return result;
}

/** Punctuation as the English collation orders it: before digits and letters, `_` first. */
const PUNCTUATION = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$';
const DIGITS = PUNCTUATION.length;

/** A key's tokens: each run of digits is one, every other character one. */
const tokens = (key: string): string[] => key.match(/\d+|\D/g) ?? [];

/** A token's class and place: punctuation, then numbers, then letters (case aside), then the rest. */
function rank(token: string): number {
  if (/^\d/.test(token)) return DIGITS;
  const punctuation = PUNCTUATION.indexOf(token);
  return punctuation >= 0 ? punctuation : DIGITS + 1 + token.toLowerCase().codePointAt(0)!;
}

/**
 * The order of meter keys, as `localeCompare(…, 'en', { numeric: true })` gives it for the keys units
 * use: numbers by their value (`buses.2` before `buses.10`), the rest character by character, case
 * aside, punctuation first. Plain code, because `localeCompare` with options builds a collator on every
 * comparison and `Intl.Collator` loads the collation data on first use: 10 ms and 6 ms of a command that
 * reads one unit's meters.
 */
export function byKey(a: string, b: string): number {
  const [left, right] = [tokens(a), tokens(b)];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const [x, y] = [left[i]!, right[i]!];
    const order = rank(x) - rank(y);
    if (order !== 0) return order;
    if (rank(x) === DIGITS && Number(x) !== Number(y)) return Number(x) - Number(y);
  }
  if (left.length !== right.length) return left.length - right.length;
  // Equal but for the case of a letter (lower case first) or zeros before a number (no difference).
  const [x, y] = [a.replace(/\d+/g, (n) => String(Number(n))), b.replace(/\d+/g, (n) => String(Number(n)))];
  return x === y ? 0 : x > y ? -1 : 1;
}

/**
 * `meter/values/` (a map keyed by id) → readings, sorted by key; entries marked `internal` are left out
 * unless asked for.
 */
export function meterReadings(
  values: Record<string, unknown>,
  options: MeterReadOptions = {},
): MeterReading[] {
  return (
    Object.entries(values)
      .sort(([a], [b]) => byKey(a, b))
      // A meter's id is the controller's text too: it names columns and reaches the window.
      .map(([key, entry]) => reading(neutralise(key, TEXT_LIMITS.unitName), entry))
      .filter((r) => options.internal === true || r.internal !== true)
  );
}
