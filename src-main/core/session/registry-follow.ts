import type { ControllerSummary } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import type { ExternalChange } from '../saved/registry-file';
import { sameConnection } from '../saved/registry-records';
import type { SessionManager } from './sessions';

/** Whether a change means logging in again (anything else only relabels a running session). */
function reconnects(before: ControllerSummary, after: ControllerSummary): boolean {
  return !sameConnection(before, after) || before.hasSecret !== after.hasSecret;
}

/**
 * Another process (the CLI, the web shell, a second app) changed the saved controllers: start polling
 * the ones it added, stop the ones it removed, reconnect the ones it moved or logged in to differently,
 * relabel the renamed. Demo controllers live in the process that started them and are left alone.
 */
export function followExternalChange(
  sessions: SessionManager,
  log: Logger,
): (change: ExternalChange) => void {
  return ({ before, after }) => {
    const previous = new Map(before.map((c) => [c.id, c]));
    const current = new Set(after.map((c) => c.id));
    for (const controller of after) {
      if (controller.demo) continue;
      const old = previous.get(controller.id);
      if (old && !reconnects(old, controller)) {
        sessions.rename(controller);
        continue;
      }
      sessions
        .follow(controller)
        .catch((error: unknown) => log(`could not start polling ${controller.name}`, error));
    }
    for (const old of before) {
      if (old.demo || current.has(old.id)) continue;
      sessions.stop(old.id).catch((error: unknown) => log(`could not stop polling ${old.name}`, error));
    }
  };
}
