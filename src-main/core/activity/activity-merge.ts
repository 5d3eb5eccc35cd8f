/**
 * The lab store's entries and what only memory holds (a demo controller's entries, entries still waiting
 * to be written), as one log: by id, each id once, memory's version first (a refusal's count may have
 * grown since it was written).
 */
import type { ActivityEntry } from '../../../src-preload/model';

/** In `order`, at most `limit`: `stored` is in that order already (the store's at most `limit`). */
export function merged(
  stored: readonly ActivityEntry[],
  memory: readonly ActivityEntry[],
  order: 'newest' | 'oldest',
  limit = Number.POSITIVE_INFINITY,
): ActivityEntry[] {
  if (memory.length === 0) return stored.slice(0, limit);
  const mine = new Set(memory.map((entry) => entry.id));
  const sign = order === 'newest' ? -1 : 1;
  return [...memory, ...stored.filter((entry) => !mine.has(entry.id))]
    .sort((a, b) => sign * (a.id - b.id))
    .slice(0, limit);
}

/** Oldest first, page by page: `pages` oldest first from the store, `memory` oldest first. */
export async function* oldestMerged(
  pages: AsyncIterable<ActivityEntry[]>,
  memory: readonly ActivityEntry[],
): AsyncGenerator<ActivityEntry[]> {
  const mine = new Set(memory.map((entry) => entry.id));
  let next = 0;
  for await (const page of pages) {
    const out: ActivityEntry[] = [];
    for (const entry of page) {
      while (next < memory.length && memory[next]!.id <= entry.id) out.push(memory[next++]!);
      if (!mine.has(entry.id)) out.push(entry);
    }
    if (out.length) yield out;
  }
  if (next < memory.length) yield memory.slice(next);
}
