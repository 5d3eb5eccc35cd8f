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
  /**
   * The outlet the message is about as Plugboard numbers it (1-based; the unit's default topics count
   * from 0: `outlets/0` is outlet 1), or null when the door cannot tell. A topic of the unit's default
   * form (`<root>/outlets/<index>`) names its outlet itself and wins.
   */
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

/** The outlet a message is about (1-based), or null: read them all. */
export function outletOf(message: UnitMessage, root: string): number | null {
  const own = /^outlets\/(\d{1,3})$/.exec(message.topic.slice(root.length + 1));
  if (own) return Number(own[1]) + 1;
  const given = message.outlet;
  return given !== null && Number.isInteger(given) && given >= 1 ? given : null;
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
      ctx.sessions.peek(controllerId)?.hint(root, outletOf(message, root));
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
