/** What a failed write to the lab store says about its cause, on either engine. */

/** SQLite's "database is locked" (SQLITE_BUSY, SQLITE_LOCKED): another connection holds what it needs. */
export function isStoreBusy(error: unknown): boolean {
  const failure = error as { errcode?: unknown } | null;
  if (!failure || typeof failure !== 'object' || typeof failure.errcode !== 'number') return false;
  const primary = failure.errcode & 0xff;
  return primary === 5 || primary === 6;
}

/** SQLite's "database or disk is full" (SQLITE_FULL, also its max_page_count reached), PostgreSQL's disk_full. */
export function isStoreFull(error: unknown): boolean {
  const failure = error as { errcode?: unknown; code?: unknown; message?: unknown } | null;
  if (!failure || typeof failure !== 'object') return false;
  // node:sqlite gives the primary result code in `errcode` (extended codes keep it in the low byte).
  if (typeof failure.errcode === 'number' && (failure.errcode & 0xff) === 13) return true;
  return failure.code === '53100';
}
