/**
 * What a unit's own MQTT messages mean to the Core (the service's MQTT door hands them over):
 * - a message under the unit's saved topic root is a hint, never the state: it makes the session read the
 *   outlets at once (coalesced with the read running), and while the unit is heard the outlets are read
 *   only at the safety interval (session/steady-reads.ts);
 * - a message on the unit's own `…/set` topic means someone commands the unit through the broker: with
 *   its "Allow write" on, the unit obeys anyone there, past Plugboard's reservations, critical outlets and
 *   roles. The Core warns, naming the unit, in the activity log and the log, at most once per unit per
 *   `SET_WARNING_EVERY_MS`.
 */
import type { Actor } from '../../../src-preload/model';
import type { CoreContext } from './core-context';

/** A unit's "Allow write" is warned about at most this often per unit (an hour). */
export const SET_WARNING_EVERY_MS = 3_600_000;

/** The warning's author in the activity log: Plugboard, at the MQTT door. */
const WARNING_ACTOR: Actor = Object.freeze({ door: 'mqtt', who: 'Plugboard' });

export interface UnitMessage {
  /** The outlet the topic names (0-based, as the unit numbers them), or null. */
  outlet: number | null;
  topic: string;
  payload: string;
}

export interface UnitMessages {
  said(controllerId: string, message: UnitMessage): void;
  setSeen(controllerId: string, topic: string): void;
}

/** Whether `topic` is `root` or under it (a whole level: `dli/pdu1` is not under `dli/pdu`). */
export function underRoot(topic: string, root: string): boolean {
  return topic === root || topic.startsWith(`${root}/`);
}

export function unitMessages(
  ctx: Pick<CoreContext, 'registry' | 'sessions' | 'activity' | 'log' | 'clock'>,
): UnitMessages {
  const warned = new Map<string, number>();
  return {
    said(controllerId, message) {
      const root = ctx.registry.get(controllerId)?.mqttTopic ?? null;
      // Not from the topic the unit was given: nothing this unit said (a stale subscription, a typo).
      if (root === null || !underRoot(message.topic, root)) return;
      ctx.sessions.peek(controllerId)?.hint(root);
    },
    setSeen(controllerId, topic) {
      const summary = ctx.registry.get(controllerId);
      if (!summary) return;
      const now = ctx.clock.now();
      const last = warned.get(controllerId);
      if (last !== undefined && now - last < SET_WARNING_EVERY_MS) return;
      warned.set(controllerId, now);
      const message = `Someone published to "${topic}" on the MQTT broker: with its own "Allow write" on, ${summary.name} obeys anyone there, past Plugboard's reservations, critical outlets and roles. On its External APIs page, turn "Allow write" off and keep "Allow read" on.`;
      ctx.log(message);
      ctx.activity.add({
        controllerId,
        controllerName: summary.name,
        outlet: null,
        action: 'commanded over its own MQTT (Allow write)',
        actor: WARNING_ACTOR,
        result: 'error',
        error: { code: 'DEVICE_ERROR', message },
      });
    },
  };
}
