/**
 * Activity ids that stay unique across restarts without the disk. An entry shown with an id whose line
 * never reached the file (the disk was full, the process was killed) must not see that id again after a
 * restart, when the log continues from the last id in the file. Writing a high-water mark does not help:
 * it needs the same full disk. So an id is at least the clock in microseconds: one handed out before a
 * restart is below the clock after it, as long as the clock does not step back by more than the time
 * the service was down. Ids still rise by one within a burst (more than one entry per microsecond runs
 * ahead of the clock, then the clock catches up), and stay exact integers until the year 2255.
 */
export function nextActivityId(lastId: number, nowMs: number): number {
  const fromClock = Number.isFinite(nowMs) && nowMs > 0 ? Math.floor(nowMs) * 1000 : 0;
  return Math.max(lastId + 1, fromClock);
}
