/**
 * Following the lab store's reservations: a Core on the store reads it again now and then for what other
 * Cores on it took or ended. A store that cannot be read is said once, not every second while it is away
 * (the copy in memory goes on answering), and again once it reads.
 */
import type { Logger } from '../../shared/logging';
import type { Clock, TimerHandle } from '../kernel/clock';

/** How often a Core on the lab store reads it again for what other Cores on it took or ended. */
export const RESERVATIONS_RELOAD_MS = 1_000;

/** Run `reload` every RESERVATIONS_RELOAD_MS, each after the last one ended; returns the stop. */
export function keepReloading(clock: Clock, log: Logger, reload: () => Promise<void>): () => void {
  let timer: TimerHandle | null = null;
  /** The lab store could not be read at the last try: said once, and again once it reads. */
  let failing = false;
  const arm = (): void => {
    timer = clock.setTimeout(() => {
      reload()
        .then(() => {
          if (!failing) return;
          failing = false;
          log('the reservations in the lab store are read again');
        })
        .catch((error: unknown) => {
          // Once, not every second while the store is away: the copy in memory goes on answering.
          if (failing) return;
          failing = true;
          log(
            'could not read the reservations in the lab store; trying again every second, and saying so once it reads',
            error,
          );
        })
        .finally(() => {
          if (timer) arm();
        });
    }, RESERVATIONS_RELOAD_MS);
    timer.unref?.();
  };
  arm();
  return () => {
    if (timer) clock.clearTimeout(timer);
    timer = null;
  };
}
