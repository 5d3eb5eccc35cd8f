import type { Settings } from '../../src-preload/model';
import type { MeterSeries } from './meter-history';
import { shownUnit, shownValue } from './meter-limits';

/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The column title of a meter: its name and unit (as shown), with the key when two meters share a name. */
function titles(series: MeterSeries, temperature: Settings['temperatureUnit']): string[] {
  const keys = series.keys();
  const names = keys.map((key) => series.meta(key)!.name);
  return keys.map((key, i) => {
    const unit = shownUnit(series.meta(key)!.unit, temperature);
    const name =
      names.indexOf(names[i]!) === names.lastIndexOf(names[i]!) ? names[i]! : `${names[i]} [${key}]`;
    return unit ? `${name} (${unit})` : name;
  });
}

/**
 * All meter history of one controller as CSV: a header row (`time`, then one column per meter with its
 * unit), then one row per sample time with an ISO 8601 UTC timestamp; an empty cell is no reading.
 * Temperatures follow the °C/°F setting (values converted, the header names the unit).
 */
export function meterCsv(series: MeterSeries, temperature: Settings['temperatureUnit'] = 'C'): string {
  const lines = [['time', ...titles(series, temperature)].map(field).join(',')];
  const units = series.keys().map((key) => series.meta(key)!.unit);
  for (const row of series.rows()) {
    const cells = row.values.map((value, i) =>
      value === null ? '' : String(Number(shownValue(value, units[i]!, temperature).toPrecision(7))),
    );
    lines.push([new Date(row.time).toISOString(), ...cells].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** `plugboard-bench-a-meters-2024-05-01T10-20-00Z.csv`: safe on every file system. */
export function meterCsvFilename(controllerName: string, now: number): string {
  const slug =
    controllerName
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, '-')
      .slice(0, 40) || 'controller';
  const stamp = new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return `plugboard-${slug}-meters-${stamp}.csv`;
}
