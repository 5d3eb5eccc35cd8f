/**
 * CSV and JSON-lines exports of the Core: the activity log (`plugboard activity --csv`, the
 * Activity panel's export) and the fleet inventory's file name. The CSV itself is written by the one
 * writer, src-main/shared/csv.ts (RFC 4180, formula-safe text cells); times are in UTC (ISO 8601).
 */
import type { ActivityEntry } from '../../../src-preload/model';
import { csvDocument, csvRow, utcCell, type CsvCell } from '../../shared/csv';

/** `2026-11-24T10-20-00Z`: a time as a file name may hold it. */
export function fileStamp(now: number): string {
  return (utcCell(now) || '0000-00-00T00:00:00.000Z').replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}

/** `plugboard-activity-2026-11-24T10-20-00Z.csv`: safe on every file system. */
export function exportFilename(what: string, extension: string, now: number): string {
  return `plugboard-${what}-${fileStamp(now)}.${extension}`;
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
  'count',
  'last_time',
] as const;

/** The activity log as CSV, in the order given (new columns go last: scripts read the first by place) (the CLI and the panel give oldest first). */
export function activityCsv(entries: readonly ActivityEntry[]): string {
  return csvDocument(ACTIVITY_CSV_COLUMNS, entries.map(activityCells));
}

/**
 * The same CSV a page at a time, for a log too long to hold as one text: the header row (`header`) and
 * then each page's rows, written as they come.
 */
export function activityCsvPage(entries: readonly ActivityEntry[], header: boolean): string {
  return (header ? csvRow(ACTIVITY_CSV_COLUMNS) : '') + entries.map((e) => csvRow(activityCells(e))).join('');
}

function activityCells(e: ActivityEntry): CsvCell[] {
  return [
    utcCell(e.time),
    e.controllerName,
    e.outlet,
    e.action,
    e.source,
    e.who,
    e.result,
    e.error?.code,
    e.error?.message,
    e.outletName,
    e.batch,
    e.count,
    utcCell(e.lastTime),
  ];
}

/** The activity log as JSON lines: one entry per line, every line ended. */
export function activityJsonl(entries: readonly ActivityEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
