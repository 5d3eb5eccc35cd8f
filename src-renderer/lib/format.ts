import type { MeterReading, Settings } from '../../src-preload/model';
import { isPrintableTime, localDateTime, outletLabel as labelOf } from '../../src-preload/words';

/** °C → the unit of the setting; one decimal place is what a bench thermometer shows. */
export function convertTemperature(celsius: number, unit: Settings['temperatureUnit']): number {
  return unit === 'F' ? (celsius * 9) / 5 + 32 : celsius;
}

const DIGITS: Record<MeterReading['quantity'], number> = {
  voltage: 1,
  current: 2,
  energy: 3,
  power: 1,
  temperature: 1,
  humidity: 0,
  other: 2,
};

/** A meter value ready to show: converted, rounded, with its unit. `value` is '—' when there is no reading. */
export function formatReading(
  reading: Pick<MeterReading, 'quantity' | 'value' | 'unit'>,
  unit: Settings['temperatureUnit'],
): { value: string; unit: string } {
  const shownUnit = reading.unit === '°C' && unit === 'F' ? '°F' : reading.unit;
  if (reading.value === null || !Number.isFinite(reading.value)) return { value: '—', unit: shownUnit };
  const raw = reading.unit === '°C' ? convertTemperature(reading.value, unit) : reading.value;
  // Real units report zero current as a float32 denormal (1.4e-45): show it as 0.
  const clean = Math.abs(raw) < 1e-9 ? 0 : raw;
  return { value: clean.toFixed(DIGITS[reading.quantity]), unit: shownUnit };
}

/** What a time no Date can hold reads as (never "Invalid Date" or NaN). */
const UNKNOWN_TIME = localDateTime(Number.NaN);

/** `14:03:27` in the person's locale. */
export function formatTime(ms: number): string {
  if (!isPrintableTime(ms)) return UNKNOWN_TIME;
  return new Date(ms).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** `2025-03-04 14:03:27` in the person's locale. */
export function formatDateTime(ms: number): string {
  if (!isPrintableTime(ms)) return UNKNOWN_TIME;
  return new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** "5 s", "3 min", "2 h": how long something has been going on. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/** "outlet 3 (Router)", "outlet 3" for an unnamed one — the same words as the Core's (src-preload/words.ts). */
export function outletLabel(outlet: { number: number; name: string }): string {
  return labelOf(outlet.number, outlet.name);
}

/** The end of a reservation: "14:30" today, else "25 Nov 14:30", in the person's locale. */
export function untilWords(ms: number, now = Date.now()): string {
  if (!isPrintableTime(ms)) return UNKNOWN_TIME;
  const at = new Date(ms);
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === new Date(now).toDateString()) return time;
  return `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}
