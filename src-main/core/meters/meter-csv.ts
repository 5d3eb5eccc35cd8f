import type { Settings } from '../../../src-preload/model';
import { csvDocument, utcCell } from '../../shared/csv';
import { fileStamp } from '../activity/activity-export';
import type { MeterSeries } from './meter-history';
import { shownUnit, shownValue } from './meter-limits';

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
 * Temperatures follow the °C/°F setting (values converted, the header names the unit). Meter names come
 * from the controller: the one CSV writer keeps them from being read as formulas.
 */
export function meterCsv(series: MeterSeries, temperature: Settings['temperatureUnit'] = 'C'): string {
  const units = series.keys().map((key) => series.meta(key)!.unit);
  return csvDocument(
    ['time', ...titles(series, temperature)],
    Array.from(series.rows(), (row) => [
      utcCell(row.time),
      ...row.values.map((value, i) =>
        value === null ? null : Number(shownValue(value, units[i]!, temperature).toPrecision(7)),
      ),
    ]),
  );
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
  return `plugboard-${slug}-meters-${fileStamp(now)}.csv`;
}
