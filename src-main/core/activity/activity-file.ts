/**
 * The activity log's JSON-lines file: read back (damaged lines skipped, a line cut short by a crash or
 * a full disk removed, several lines of one entry read as its last), appended to whole or not at all,
 * and rewritten atomically. A failed append never leaves part of a line behind: the file is cut back to
 * the size it had before, so the next append starts on a line of its own.
 */
import { constants, readFileSync, truncateSync } from 'node:fs';
import { open, rename, unlink, writeFile } from 'node:fs/promises';
import * as v from 'valibot';
import { WRITE_NO_LINK } from '../../shared/config-folder';
import { inTurn } from '../kernel/file-turns';
import { ACTIVITY_DOORS, ERROR_CODES, type ActivityEntry } from '../../../src-preload/model';

/** A time a Date can hold: anything else would print as NaN. */
const time = v.pipe(v.number(), v.finite(), v.minValue(-8.64e15), v.maxValue(8.64e15));

const entrySchema = v.object({
  id: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  time,
  controllerId: v.string(),
  controllerName: v.string(),
  outlet: v.nullable(v.pipe(v.number(), v.integer())),
  action: v.string(),
  source: v.picklist(ACTIVITY_DOORS),
  who: v.optional(v.nullable(v.string()), null),
  result: v.picklist(['ok', 'error', 'observed']),
  error: v.nullable(
    v.object({
      code: v.picklist(ERROR_CODES),
      message: v.string(),
      detail: v.optional(
        v.record(
          v.string(),
          v.union([
            v.string(),
            v.number(),
            v.boolean(),
            v.null(),
            v.array(v.union([v.string(), v.number()])),
          ]),
        ),
      ),
    }),
  ),
  outletName: v.optional(v.nullable(v.string())),
  batch: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  count: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
  lastTime: v.optional(time),
});

export interface ReadBack {
  /** Each entry once (its last line), by id. */
  entries: ActivityEntry[];
  /** Lines in the file (what compaction counts). */
  lines: number;
  /** Lines that could not be read. */
  skipped: number;
  /** The file ended in part of a line, now cut off. */
  torn: boolean;
}

/** Read the file (null: there is none). A last line without its line end is cut off the file. */
export function readActivityFile(file: string): ReadBack | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  const torn = end < bytes.length;
  // The start of a line whose write was cut short: the next append would run on from it.
  if (torn) truncateSync(file, end);
  const lines = bytes
    .subarray(0, end)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  let skipped = torn ? 1 : 0;
  const byId = new Map<number, ActivityEntry>();
  for (const line of lines) {
    try {
      const parsed = v.safeParse(entrySchema, JSON.parse(line));
      if (parsed.success) byId.set(parsed.output.id, parsed.output as ActivityEntry);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  const entries = [...byId.values()].sort((a, b) => a.id - b.id);
  return { entries, lines: lines.length, skipped, torn };
}

/**
 * Append `text` (whole lines) to the file, creating it owner-only. All or nothing: when the write fails
 * part-way (a full disk), the file is cut back to its size before, and the error is thrown. A symbolic
 * link in the file's place is refused (O_NOFOLLOW): Plugboard writes only its own file.
 */
export async function appendWhole(file: string, text: string): Promise<void> {
  const handle = await open(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    const before = (await handle.stat()).size;
    try {
      await handle.appendFile(text, 'utf8');
    } catch (error) {
      await handle.truncate(before).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/** Replace the file with `text`: written beside it, then renamed over it, so it is whole either way. */
export function rewriteWhole(file: string, text: string): Promise<void> {
  return inTurn(file, async () => {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, text, { encoding: 'utf8', mode: 0o600, flag: WRITE_NO_LINK });
      await rename(temporary, file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  });
}

/** JSON lines, one entry each, every line ended. */
export function jsonLines(entries: readonly ActivityEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
