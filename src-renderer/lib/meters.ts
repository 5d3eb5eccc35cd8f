import type { LimitBreach, MeterReading, MeterThreshold, Settings } from '../../src-preload/model';
import { convertTemperature, formatReading } from './format';

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

const QUANTITY_OF_UNIT: Record<MeterReading['unit'], MeterReading['quantity']> = {
  V: 'voltage',
  A: 'current',
  kWh: 'energy',
  W: 'power',
  '°C': 'temperature',
  '%': 'humidity',
  '': 'other',
};

/** A canonical value in the person's units: "130.0 V", "86.0 °F". */
export function shownReading(
  value: number,
  unit: MeterReading['unit'],
  temperature: Settings['temperatureUnit'],
): string {
  const shown = formatReading({ quantity: QUANTITY_OF_UNIT[unit], value, unit }, temperature);
  return shown.unit ? `${shown.value} ${shown.unit}` : shown.value;
}

/** The most decimals a reading is ever shown with to tell it from its limit. */
const MAX_DIGITS = 6;

/**
 * A reading and the limit it crossed, in the person's units, with the digit that decides it: the limit as
 * it was set ("120.5 V"), the reading with as many decimals as it takes to differ from it on the right
 * side ("120.53 V", never "120.5 V above the maximum of 120.5 V"), and at least the meter's usual ones.
 */
export function decisiveReading(
  value: number,
  limit: number,
  unit: MeterReading['unit'],
  temperature: Settings['temperatureUnit'],
): { value: string; limit: string } {
  const usual = formatReading({ quantity: QUANTITY_OF_UNIT[unit], value, unit }, temperature);
  const shown = (x: number) => (unit === '°C' ? convertTemperature(x, temperature) : x);
  const [v, l] = [shown(value), shown(limit)];
  const limitShown = Number(l.toFixed(MAX_DIGITS));
  const beyond = (digits: number) =>
    v > limitShown ? Number(v.toFixed(digits)) > limitShown : Number(v.toFixed(digits)) < limitShown;
  let digits = usual.value.split('.')[1]?.length ?? 0;
  while (digits < MAX_DIGITS && v !== limitShown && !beyond(digits)) digits++;
  const suffix = usual.unit ? ` ${usual.unit}` : '';
  return { value: `${v.toFixed(digits)}${suffix}`, limit: `${limitShown}${suffix}` };
}

/** A breach's reading and limit with the digit that decides it (see `decisiveReading`). */
export function breachReading(
  breach: LimitBreach,
  temperature: Settings['temperatureUnit'],
): { value: string; limit: string } {
  return decisiveReading(breach.value, breach.limit, breach.unit, temperature);
}

const FIELD_WORDS: Record<string, { words: string; unit: MeterReading['unit'] }> = {
  voltage: { words: 'Voltage', unit: 'V' },
  current: { words: 'Current', unit: 'A' },
  power: { words: 'Power', unit: 'W' },
  total_energy: { words: 'Total energy', unit: 'kWh' },
  energy: { words: 'Energy', unit: 'kWh' },
  temperature: { words: 'Temperature', unit: '°C' },
  relative_humidity: { words: 'Humidity', unit: '%' },
  humidity: { words: 'Humidity', unit: '%' },
};

/**
 * A meter's name and unit for lists such as Settings: the controller's own name for it when it was read
 * (`AC voltage`), else words made from its key — `sensors.0.temperature` → "Temperature (sensor 1)",
 * `buses.0.voltage` → "Voltage (bus 1)", `environment.temperature` → "Internal temperature", a
 * platform id such as `mains_voltage` → "Mains voltage".
 */
export function meterLabel(
  key: string,
  reading: Pick<MeterReading, 'name' | 'unit'> | undefined,
): { name: string; unit: MeterReading['unit'] } {
  const field = key.split('.').at(-1) ?? key;
  const known = FIELD_WORDS[field] ?? Object.entries(FIELD_WORDS).find(([f]) => field.endsWith(f))?.[1];
  const unit = reading?.unit ?? known?.unit ?? '';
  if (reading?.name.trim()) return { name: reading.name.trim(), unit };
  const parts = /^(buses|sensors)\.(\d+)\.(\w+)$/.exec(key);
  if (parts && known)
    return {
      name: `${known.words} (${parts[1] === 'buses' ? 'bus' : 'sensor'} ${Number(parts[2]) + 1})`,
      unit,
    };
  if (key.startsWith('environment.') && known) return { name: `Internal ${known.words.toLowerCase()}`, unit };
  const words = field.replace(/[_.]+/g, ' ').trim();
  return { name: words ? words[0]!.toUpperCase() + words.slice(1) : key, unit };
}

/** Saved limits in the person's units: "110 V to 125 V", "at least 110 V", "at most 86.0 °F". */
export function limitsText(
  threshold: Pick<MeterThreshold, 'min' | 'max'>,
  unit: MeterReading['unit'],
  temperature: Settings['temperatureUnit'],
): string {
  const show = (x: number) => shownReading(x, unit, temperature);
  if (threshold.min !== null && threshold.max !== null)
    return `${show(threshold.min)} to ${show(threshold.max)}`;
  if (threshold.min !== null) return `at least ${show(threshold.min)}`;
  if (threshold.max !== null) return `at most ${show(threshold.max)}`;
  return 'no limits';
}
