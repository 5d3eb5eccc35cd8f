/**
 * The activity log's way into the lab store: at the first start on a config folder an older Plugboard
 * used, its `activity.jsonl` is read as that Plugboard read it (activity-file.ts) and added to the store
 * in one transaction; then the file is renamed `activity.jsonl.imported-<time>` and stays as a backup.
 * A crash between the two imports it again at the next start: an id already in the store is left as it
 * is, so nothing is counted twice.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../shared/logging';
import type { LabStore } from '../database/lab-store';
import { fileStamp } from './activity-export';
import { readActivityFile } from './activity-file';
import { ActivityRecords } from './activity-records';

/** The activity log's file as Plugboard kept it before the lab store. */
export const ACTIVITY_FILE = 'activity.jsonl';

/** The backup an imported file becomes. */
export const importedName = (now: number) => `${ACTIVITY_FILE}.imported-${fileStamp(now)}`;

/** The store's rows of the log, the file of `dir` moved in first; and the highest id to continue from. */
export async function openActivityRecords(
  store: LabStore,
  dir: string,
  log: Logger,
  now: number,
): Promise<{ records: ActivityRecords; lastId: number }> {
  const records = new ActivityRecords(store);
  const file = join(dir, ACTIVITY_FILE);
  const read = readActivityFile(file);
  if (read) {
    const added = await records.importAll(read.entries);
    const backup = importedName(now);
    await rename(file, join(dir, backup));
    // Said once, when there was something to move (an empty file is only set aside).
    const skipped = read.skipped ? ` (${read.skipped} unreadable line(s) skipped)` : '';
    if (read.entries.length > 0 || read.skipped > 0)
      log(
        `moved ${read.entries.length} activity entries from ${ACTIVITY_FILE} into the lab store ${store.where} (${added} new)${skipped}; the file is kept as ${backup}`,
      );
  }
  return { records, lastId: await records.lastId() };
}
