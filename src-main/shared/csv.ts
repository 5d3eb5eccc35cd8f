/**
 * The one CSV writer: every export (the activity log, the fleet inventory, a controller's meters) goes
 * through it. RFC 4180 (CRLF line ends; a field holding a comma, a quote or a line break is quoted, its
 * quotes doubled), and formula-safe as OWASP's CSV-injection guidance asks: a text cell that starts with
 * =, +, -, @, a tab, a carriage return (or a line feed or NUL) gets a leading ' so a spreadsheet shows it
 * as text instead of running it. Text from a controller (a meter's name) or from anyone on the lab
 * network reaches these files. Numbers are cells of their own kind and are never guarded: -3.2 stays a
 * number a spreadsheet can add up.
 */

/** A cell: text (guarded), a number (written as it is; not finite: empty), or nothing (empty). */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r\n\0]/;

/** One field of a CSV row. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row, ended by CRLF. */
export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** A whole CSV document: a header row, then the rows; every line ended by CRLF. */
export function csvDocument(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  let out = csvRow(header);
  for (const row of rows) out += csvRow(row);
  return out;
}

/** ISO 8601 in UTC, or an empty cell (no time, or one no Date can hold). */
export function utcCell(time: number | null | undefined): string {
  if (time === null || time === undefined || !Number.isFinite(time) || Math.abs(time) > 8.64e15) return '';
  return new Date(time).toISOString();
}
