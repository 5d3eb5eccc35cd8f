/**
 * The lab store of a config folder, opened and migrated, with what older Plugboards kept in files moved
 * in (the activity log's activity.jsonl, config.json's reservations, the runs of sequence-runs/), and
 * the records a Core keeps there.
 */
import type { Logger } from '../../shared/logging';
import { openActivityRecords } from '../activity/activity-import';
import type { ActivityRecords } from '../activity/activity-records';
import { PromisedSwitches } from '../actions/promised-switches';
import { openLabStore, type LabStore } from '../database/lab-store';
import { ReservationBook } from '../reservations/reservation-book';
import { importReservations } from '../reservations/reservation-import';
import { openConfStore } from '../saved/conf-store';
import { SequenceRunBook } from '../sequences/sequence-run-book';
import { importSequenceRuns } from '../sequences/sequence-run-import';

export interface LabRecords {
  store: LabStore;
  activity: { records: ActivityRecords; lastId: number };
  /** The reservations, read at start. */
  reservations: ReservationBook;
  /** The sequence runs, read at start. */
  sequenceRuns: SequenceRunBook;
  /** Delayed cycles' promises to switch an outlet back on, while they stand. */
  promises: PromisedSwitches;
}

/**
 * Open the lab store for the config folder `dir` (PostgreSQL when the environment names one, else
 * SQLite there), migrated, with the folder's files moved in. Refuses a store a newer Plugboard wrote (a
 * PlugboardError saying so).
 */
export async function openLabRecords(
  dir: string,
  version: string,
  log: Logger,
  now: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LabRecords> {
  const store = await openLabStore(dir, version, env);
  try {
    const activity = await openActivityRecords(store, dir, log, now);
    const reservations = await ReservationBook.open(store, now);
    await importReservations(reservations, () => openConfStore(dir), dir, log, now);
    const sequenceRuns = await SequenceRunBook.open(store, log);
    await importSequenceRuns(sequenceRuns, dir, store.where, log, now);
    return { store, activity, reservations, sequenceRuns, promises: new PromisedSwitches(store, log) };
  } catch (error) {
    await store.close();
    throw error;
  }
}
