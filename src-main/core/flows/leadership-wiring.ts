/**
 * The Core under a leadership (several services on one lab store): while another service leads, no
 * session runs (nothing polls the units) and the states say so; when this one begins to lead, the
 * takeover work runs first, then every saved controller's session starts; when it stops leading, every
 * session stops. The refusal of changes is the permission check's (handlers/permissions.ts), and the
 * fence before each write to a unit the client's (the sessions' `beforeWrite`).
 */
import { isPlugboardError, type PlugboardError } from '../../shared/errors';
import type { Logger } from '../../shared/logging';
import { standbyError, type Leadership, type ServiceName } from '../database/leadership';
import type { ControllerRegistry } from '../saved/registry';
import type { SessionManager } from '../session/sessions';

export interface LeadershipWiring {
  leadership: Leadership;
  sessions: SessionManager;
  registry: ControllerRegistry;
  log: Logger;
  /**
   * The takeover work, awaited when this service begins to lead, before it polls or accepts a change:
   * what the previous leader (`previous`, null when unknown) left half done.
   */
  takeOverFrom(previous: ServiceName | null): Promise<void>;
}

/** Follow the leadership from now on; returns the unsubscribe. */
export function followLeadership(wiring: LeadershipWiring): () => void {
  const { leadership, sessions, registry, log } = wiring;
  const why = (): PlugboardError => {
    try {
      leadership.assertMayWrite();
    } catch (error) {
      if (isPlugboardError(error)) return error;
    }
    // Between holding the lease and being told so (the takeover work is running).
    return standbyError(leadership.self, leadership.leader(), 'it is taking over the lab');
  };
  if (!leadership.leads()) void sessions.standBy(why);
  return leadership.onChange(async (leads, previous) => {
    if (!leads) {
      await sessions.standBy(why);
      return;
    }
    await wiring.takeOverFrom(previous);
    sessions.lead();
    for (const summary of registry.list()) {
      if (summary.demo) continue;
      await sessions
        .start(summary)
        .catch((error: unknown) => log(`could not start polling ${summary.name}`, error));
    }
  });
}
