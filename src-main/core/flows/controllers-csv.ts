/**
 * Reading a CSV file of controllers to import: a header row naming the columns
 * (address, and optionally name, user, tags, fingerprint, in any order and case), then one controller a
 * row. Tags in a cell are separated by ";". A password, secret or token column is refused: secrets are
 * typed once for the import, never kept in a file. Nothing is saved here; every row comes back with its
 * problems (bad address, duplicate, already saved…) for the person to see before adding.
 */
import { CsvError, parse } from 'csv-parse/sync';
import type { CsvImportPreview, CsvImportRow } from '../../../src-preload/contract';
import { MAX_BULK_UNITS } from '../../../src-preload/model';
import { hostPortKey, normaliseControllerUrl, normaliseFingerprint } from '../../shared/controller-address';
import { PlugboardError, isPlugboardError } from '../../shared/errors';
import { cleanTags } from '../saved/registry-records';
import type { CoreContext } from './core-context';

const COLUMNS = ['name', 'address', 'user', 'tags', 'fingerprint'] as const;
type Column = (typeof COLUMNS)[number];
const SECRET_COLUMN = /pass|secret|token|pwd|kennwort|credential/i;

/** The column each header cell names (by position), or a refusal naming the cell. */
function readHeader(cells: readonly string[]): Map<Column, number> {
  const columns = new Map<Column, number>();
  cells.forEach((cell, index) => {
    const word = cell.trim().toLowerCase();
    if (SECRET_COLUMN.test(word)) {
      throw new PlugboardError(
        'BAD_INPUT',
        `The file has a "${cell.trim().slice(0, 40)}" column: Plugboard never reads passwords or tokens from a file.`,
        { column: index + 1 },
        {
          action:
            'Remove that column (and delete the file’s copies of the passwords); type the password once when you import.',
        },
      );
    }
    if (word === '') return;
    const column = COLUMNS.find((c) => c === word);
    if (!column) {
      throw new PlugboardError(
        'BAD_INPUT',
        `The file's first row names a column "${cell.trim().slice(0, 40)}" that Plugboard does not know.`,
        { column: index + 1 },
        {
          action:
            'The first row names the columns: address, and optionally name, user, tags and fingerprint.',
        },
      );
    }
    if (columns.has(column))
      throw new PlugboardError('BAD_INPUT', `The file's first row names the column "${column}" twice.`);
    columns.set(column, index);
  });
  if (!columns.has('address')) {
    throw new PlugboardError('BAD_INPUT', 'The file has no "address" column.', undefined, {
      action: 'Give a first row naming the columns: name, address, user, tags (address is required).',
    });
  }
  return columns;
}

function records(text: string): { cells: string[]; line: number }[] {
  try {
    const parsed = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return parsed.map(({ record, info }) => ({ cells: record, line: info.lines }));
  } catch (error) {
    const where = error instanceof CsvError && 'lines' in error ? ` (line ${String(error.lines)})` : '';
    throw new PlugboardError(
      'BAD_INPUT',
      `The file is not valid CSV${where}: ${error instanceof Error ? error.message.split(':')[0] : 'unreadable'}.`,
      undefined,
      { action: 'Save it as CSV (comma-separated, quotes closed) and choose it again.' },
    );
  }
}

/** A problem's sentence, from what a check threw. */
function problem(error: unknown): string {
  if (isPlugboardError(error)) return error.message;
  throw error;
}

function readRow(
  cells: readonly string[],
  line: number,
  columns: Map<Column, number>,
  width: number,
): CsvImportRow {
  const cell = (column: Column): string => {
    const at = columns.get(column);
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
  const problems: string[] = [];
  if (cells.length > width) problems.push(`It has ${cells.length} cells, more than the ${width} columns.`);
  const name = cell('name');
  if (name.length > 64) problems.push('The name is longer than 64 characters.');
  const address = cell('address');
  let url: string | null = null;
  try {
    url = normaliseControllerUrl(address);
  } catch (error) {
    problems.push(problem(error));
  }
  const user = cell('user');
  if (user && !/^[^\s:]{1,64}$/.test(user))
    problems.push(`The user "${user.slice(0, 40)}" may not contain spaces or colons.`);
  let tags: string[] = [];
  try {
    tags = cleanTags(
      cell('tags')
        .split(';')
        .filter((tag) => tag.trim() !== ''),
    );
  } catch (error) {
    problems.push(problem(error));
  }
  let fingerprint: string | null = null;
  if (cell('fingerprint')) {
    try {
      fingerprint = normaliseFingerprint(cell('fingerprint'));
    } catch (error) {
      problems.push(problem(error));
    }
  }
  return { line, name, address, url, user, tags, fingerprint, problems };
}

/** Duplicates within the file and against the saved controllers, added to each row's problems. */
function checkDuplicates(ctx: CoreContext, rows: CsvImportRow[]): void {
  const saved = ctx.registry.list();
  const addresses = new Map<string, number>();
  const names = new Map<string, number>();
  for (const row of rows) {
    if (row.url) {
      const key = hostPortKey(row.url);
      const same = saved.find((c) => hostPortKey(c.url) === key);
      if (same) row.problems.push(`${row.url} is already saved as "${same.name}".`);
      const earlier = addresses.get(key);
      if (earlier !== undefined) row.problems.push(`The address is also on line ${earlier}.`);
      else addresses.set(key, row.line);
    }
    if (row.name) {
      const key = row.name.toLowerCase();
      const same = saved.find((c) => c.name.toLowerCase() === key);
      if (same) row.problems.push(`A saved controller is already called "${same.name}".`);
      const earlier = names.get(key);
      if (earlier !== undefined) row.problems.push(`The name is also on line ${earlier}.`);
      else names.set(key, row.line);
    }
  }
}

/** The file's rows, each with its problems; the users they name. */
export function previewCsv(ctx: CoreContext, text: string): CsvImportPreview {
  const all = records(text);
  const [header, ...data] = all;
  if (!header) throw new PlugboardError('BAD_INPUT', 'The file is empty.');
  const columns = readHeader(header.cells);
  if (data.length === 0)
    throw new PlugboardError('BAD_INPUT', 'The file has a header row but no controllers under it.');
  if (data.length > MAX_BULK_UNITS) {
    throw new PlugboardError(
      'BAD_INPUT',
      `The file lists ${data.length} controllers; one import takes at most ${MAX_BULK_UNITS}.`,
      undefined,
      { action: 'Split it into smaller files.' },
    );
  }
  const rows = data.map(({ cells, line }) => readRow(cells, line, columns, header.cells.length));
  checkDuplicates(ctx, rows);
  const users = [...new Set(rows.filter((r) => r.problems.length === 0 && r.user).map((r) => r.user))];
  return { rows, users };
}
