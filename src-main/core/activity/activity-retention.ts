/**
 * The activity log's retention: by age, not by count. Entries older than the `activityRetentionDays`
 * setting (default 400) leave the lab store at start and once a day after; a count would let a busy
 * farm's week push out the quiet bench's year.
 */
import type { Logger } from '../../shared/logging';
import type { Clock, TimerHandle } from '../kernel/clock';
import type { ActivityRecords } from './activity-records';

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  records: ActivityRecords;
  clock: Clock;
  log: Logger;
  /** The setting now, in days. */
  days(): number;
}

export interface Retention {
  /** Resolves once the prune under way (if any) has ended. */
  settled(): Promise<void>;
  /** No more prunes; resolves once the one under way has ended. */
  stop(): Promise<void>;
}

/** Prune now, then daily. */
export function startRetention(options: RetentionOptions): Retention {
  let timer: TimerHandle | null = null;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const prune = async () => {
    const days = options.days();
    try {
      const removed = await options.records.prune(options.clock.now() - days * DAY_MS);
      if (removed > 0)
        options.log(
          `the activity log let go of ${removed} entries older than ${days} days (activityRetentionDays)`,
        );
    } catch (error) {
      options.log(
        `could not remove activity older than ${days} days from ${options.records.store.where}`,
        error,
      );
    }
  };
  const next = () => {
    if (stopped) return;
    timer = options.clock.setTimeout(() => {
      running = prune().then(next);
    }, DAY_MS);
    timer.unref?.();
  };
  running = prune().then(next);
  return {
    settled: () => running,
    async stop() {
      stopped = true;
      if (timer !== null) options.clock.clearTimeout(timer);
      await running;
    },
  };
}
