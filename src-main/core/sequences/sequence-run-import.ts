/**
 * The sequence runs' way into the lab store: at the first start on a config folder an older Plugboard
 * used, the runs in its `sequence-runs/` (read as that Plugboard read them, sequence-file.ts) are added
 * to the store in one transaction; then the folder is renamed `sequence-runs.imported-<time>` and stays
 * as a backup. A crash between the two imports them again at the next start: a run already in the store
 * is left as it is.
 */
import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../shared/logging';
import { fileStamp } from '../activity/activity-export';
import { SEQUENCE_RUNS_DIR, SequenceFile } from './sequence-file';
import type { SequenceRunBook } from './sequence-run-book';

/** The backup the folder becomes. */
export const runsBackupName = (now: number) => `${SEQUENCE_RUNS_DIR}.imported-${fileStamp(now)}`;

/** Move the runs of `dir`'s sequence-runs/ into `book`; how many were new. */
export async function importSequenceRuns(
  book: SequenceRunBook,
  dir: string,
  where: string,
  log: Logger,
  now: number,
): Promise<number> {
  const folder = join(dir, SEQUENCE_RUNS_DIR);
  if (!existsSync(folder)) return 0;
  const runs = new SequenceFile(dir, log).readAll();
  const added = await book.importAll(runs);
  const backup = runsBackupName(now);
  await rename(folder, join(dir, backup));
  // Said once, when there was something to move (an empty folder is only set aside).
  if (runs.length > 0)
    log(
      `moved ${runs.length} sequence run(s) from ${SEQUENCE_RUNS_DIR}/ into the lab store ${where} (${added} new); the folder is kept as ${backup}`,
    );
  return added;
}
