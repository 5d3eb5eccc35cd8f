/** Aligned plain-text tables for human output. Colours are applied after padding, so columns stay aligned. */

export interface Column<Row> {
  title: string;
  value: (row: Row) => string;
  /** Colour a cell's padded text (e.g. green for "on"). */
  paint?: (text: string, row: Row) => string;
  align?: 'left' | 'right';
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Rows under a header, columns separated by two spaces; trailing spaces trimmed. */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  bold: (s: string) => string,
): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const sizes = columns.map((column, i) =>
    Math.max(width(column.title), ...cells.map((line) => width(line[i] ?? ''))),
  );
  const header = columns
    .map((column, i) => pad(column.title, sizes[i]!, column.align ?? 'left'))
    .join('  ')
    .trimEnd();
  const body = cells.map((line, r) =>
    columns
      .map((column, i) => {
        const padded = pad(line[i] ?? '', sizes[i]!, column.align ?? 'left');
        return column.paint ? column.paint(padded, rows[r]!) : padded;
      })
      .join('  ')
      .replace(/\s+$/, ''),
  );
  return [bold(header), ...body].join('\n');
}

/** `key  value` lines, keys padded to one width. */
export function renderPairs(pairs: readonly [string, string][], dim: (s: string) => string): string {
  const size = Math.max(...pairs.map(([key]) => width(key)));
  return pairs.map(([key, value]) => `${dim(pad(key, size, 'left'))}  ${value}`).join('\n');
}
