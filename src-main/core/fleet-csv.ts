/**
 * CSV and JSON-lines exports of the Core (issue 16): the activity log (`plugboard activity --csv`, the
 * Activity panel's export) and the fleet inventory. One CSV dialect for all of them: RFC 4180 (CRLF line
 * ends, fields quoted when they hold a comma, quote or line break), times in UTC (ISO 8601), and cells
 * made formula-safe (a leading =, +, -, @, tab or CR gets a ' so a spreadsheet shows it as text).
 */
import type { ActivityEntry } from '../../src-preload/model';

/** A CSV field (RFC 4180), formula-safe. */
export function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A whole CSV document: a header row, then the rows; every line ended by CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((cells) => `${cells.map(csvField).join(',')}\r\n`).join('');
}

/** ISO 8601 in UTC, or an empty cell. */
export function utc(time: number | null): string {
  return time === null ? '' : new Date(time).toISOString();
}

/** `plugboard-activity-2026-11-24T10-20-00Z.csv`: safe on every file system. */
export function exportFilename(what: string, extension: string, now: number): string {
  const stamp = new Date(now)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  return `plugboard-${what}-${stamp}.${extension}`;
}

export const ACTIVITY_CSV_COLUMNS = [
  'time',
  'controller',
  'outlet',
  'action',
  'door',
  'who',
  'result',
  'error_code',
  'error',
  'outlet_name',
  'batch',
] as const;

/** The activity log as CSV, in the order given (new columns go last: scripts read the first by place) (the CLI and the panel give oldest first). */
export function activityCsv(entries: readonly ActivityEntry[]): string {
  return csvDocument(
    ACTIVITY_CSV_COLUMNS,
    entries.map((e) => [
      utc(e.time),
      e.controllerName,
      e.outlet === null ? '' : String(e.outlet),
      e.action,
      e.source,
      e.who ?? '',
      e.result,
      e.error?.code ?? '',
      e.error?.message ?? '',
      e.outletName ?? '',
      e.batch === undefined ? '' : String(e.batch),
    ]),
  );
}

/** The activity log as JSON lines: one entry per line, every line ended. */
export function activityJsonl(entries: readonly ActivityEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
