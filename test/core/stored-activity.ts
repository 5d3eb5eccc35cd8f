/**
 * The activity log as the lab store keeps it on SQLite, read straight from the file in a config folder
 * (another connection beside the Core's: SQLite's write-ahead log lets it read while the Core writes).
 * Oldest first; [] when there is no store yet.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivityEntry } from '../../src-preload/model';
import { entryOf } from '../../src-main/core/activity/activity-records';
import { LAB_STORE_FILE } from '../../src-main/core/database/lab-store';
import { sqliteModule } from '../../src-main/core/database/node-sqlite';
import type { ActivityTable } from '../../src-main/core/database/schema';

export function storedActivity(dir: string): ActivityEntry[] {
  const file = join(dir, LAB_STORE_FILE);
  if (!existsSync(file)) return [];
  const db = new (sqliteModule().DatabaseSync)(file, { readOnly: true });
  try {
    return db
      .prepare('SELECT * FROM activity ORDER BY id')
      .all()
      .map((row) => entryOf(row as unknown as ActivityTable));
  } finally {
    db.close();
  }
}
