/**
 * The reservations' way into the lab store: at the first start on a config folder an older Plugboard
 * used, the reservations in its config.json (read as that Plugboard read them, reservation-records.ts)
 * are added to the store in one transaction. Only after the store committed is a copy of config.json
 * kept as `config.json.imported-<time>` and the reservations taken out of config.json, all under the
 * file's lock. A crash between the two imports them again at the next start: an id already in the
 * store is left as it is.
 */
import { chmodSync, copyFileSync, constants } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../shared/logging';
import { fileStamp } from '../activity/activity-export';
import type { KeyValueStore } from '../kernel/ports';
import { CONFIG_FILE_MODE } from '../saved/conf-store';
import { GROUPS_KEY, readControllers, readGroups, CONTROLLERS_KEY } from '../saved/registry-records';
import type { ReservationBook } from './reservation-book';
import { readReservations, RESERVATIONS_KEY } from './reservation-records';
import { cellsOf } from './reservation-words';

/** The settings file whose reservations move. */
export const CONFIG_FILE = 'config.json';

/** The copy of config.json kept when its reservations moved. */
export const configBackupName = (now: number) => `${CONFIG_FILE}.imported-${fileStamp(now)}`;

/** Move the reservations of `dir`'s config.json (its store as `openConf` opens it) into `book`; how many moved. */
export async function importReservations(
  book: ReservationBook,
  openConf: () => KeyValueStore,
  dir: string,
  log: Logger,
  now: number,
): Promise<number> {
  let conf: KeyValueStore;
  let raw: unknown;
  try {
    conf = openConf();
    raw = conf.get<unknown>(RESERVATIONS_KEY, undefined);
  } catch (error) {
    // An unreadable config.json stops no start here (what reads it says so); the move waits for a
    // start that can read it.
    log(
      `could not read ${CONFIG_FILE} to move its reservations into the lab store; they stay there for now`,
      error,
    );
    return 0;
  }
  if (raw === undefined) return 0;
  const move = async (): Promise<number> => {
    // Read again under the file's lock: another process may have changed it since.
    const raw = conf.get<unknown>(RESERVATIONS_KEY, undefined);
    if (raw === undefined) return 0;
    const ignore = () => undefined;
    const controllers = new Set(
      readControllers(conf.get<unknown>(CONTROLLERS_KEY, []), ignore).map((c) => c.id),
    );
    const groups = readGroups(conf.get<unknown>(GROUPS_KEY, []), controllers, ignore);
    let invalid = 0;
    const { list } = readReservations(raw, {
      invalid: () => (invalid += 1),
      expand: (target) => cellsOf(target, groups),
    });
    const current = list.filter((r) => r.expiresAt > now);
    const added = await book.importAll(current, now);
    const backup = configBackupName(now);
    copyFileSync(join(dir, CONFIG_FILE), join(dir, backup), constants.COPYFILE_EXCL);
    chmodSync(join(dir, backup), CONFIG_FILE_MODE);
    conf.set(RESERVATIONS_KEY, undefined);
    const left = invalid ? ` (${invalid} invalid one(s) left out)` : '';
    if (list.length > 0 || invalid > 0)
      log(
        `moved ${current.length} current reservation(s) from ${CONFIG_FILE} into the lab store ${book.where} (${added} new)${left}; ${CONFIG_FILE} as it was is kept as ${backup}`,
      );
    return added;
  };
  return conf.exclusive ? conf.exclusive(move) : move();
}
