/**
 * Plugboard's topic tree (docs/mqtt.md), named by each unit's serial so a rename changes no topic:
 *
 *   <prefix>/status                              online | offline (the service; its last will says offline)
 *   <prefix>/<serial>/status                     online | offline (the controller answers Plugboard)
 *   <prefix>/<serial>/outlet/<n>/state           ON | OFF   what the relay does now (physical state)
 *   <prefix>/<serial>/outlet/<n>/saved           ON | OFF   the saved state, restored after power loss
 *   <prefix>/<serial>/outlet/<n>/temporary       ON | OFF   the temporary state
 *   <prefix>/<serial>/outlet/<n>/pending         NONE | ON | OFF | CYCLE   asked for, not confirmed yet
 *   <prefix>/<serial>/outlet/<n>/locked          true | false
 *   <prefix>/<serial>/outlet/<n>/critical        true | false
 *   <prefix>/<serial>/outlet/<n>/name            the outlet's name on the unit
 *   <prefix>/<serial>/outlet/<n>/reservation     {"holder","until","reason"} or null
 *   <prefix>/<serial>/meter/<key>                {"value": 229.8, "unit": "V"} (value null: no reading)
 *   <prefix>/<serial>/outlet/<n>/set             commands in (never retained)
 *   <prefix>/<serial>/outlet/<n>/result          the answer to each command (not retained)
 *
 * Every state topic is retained; this module computes them as a map (topic → payload) per controller,
 * and the bus publishes what changed.
 */
import type {
  ControllerState,
  ControllerSummary,
  OutletState,
  Reservation,
} from '../../../src-preload/model';

export type Retained = Map<string, string>;

/** A topic level or Home Assistant id made of a serial or meter key: `[A-Za-z0-9_-]` only. */
export function topicId(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function serviceTopic(prefix: string): string {
  return `${prefix}/status`;
}

export function controllerRoot(prefix: string, serial: string): string {
  return `${prefix}/${topicId(serial)}`;
}

export function outletRoot(prefix: string, serial: string, outlet: number): string {
  return `${controllerRoot(prefix, serial)}/outlet/${outlet}`;
}

/** The outlet's id in a command's `confirm=` word and in answers: `<serial>-<n>`. */
export function outletId(serial: string, outlet: number): string {
  return `${topicId(serial)}-${outlet}`;
}

/** A meter key as a topic level (`buses.0.voltage` → `buses_0_voltage`). */
export function meterLevel(key: string): string {
  return topicId(key);
}

const onOff = (on: boolean): string => (on ? 'ON' : 'OFF');

function pendingWord(outlet: OutletState): string {
  if (!outlet.pending) return 'NONE';
  return outlet.pending.kind === 'cycle' ? 'CYCLE' : onOff(outlet.pending.target);
}

/** The reservation covering an outlet now (its own or its whole controller's), or null. */
export function reservationOf(
  reservations: readonly Reservation[],
  controllerId: string,
  outlet: number,
): Reservation | null {
  return (
    reservations.find((r) =>
      r.covers.some((c) => c.controllerId === controllerId && (c.outlet === null || c.outlet === outlet)),
    ) ?? null
  );
}

/**
 * Every retained state topic of one controller (its status, outlets and meters). Without a state yet
 * (a standby, a controller never read) only its status, offline.
 */
export function controllerTopics(
  prefix: string,
  serial: string,
  summary: ControllerSummary,
  state: ControllerState | null,
  reservations: readonly Reservation[],
): Retained {
  const topics: Retained = new Map();
  const root = controllerRoot(prefix, serial);
  topics.set(`${root}/status`, state?.status === 'online' ? 'online' : 'offline');
  for (const outlet of state?.outlets ?? []) {
    const base = outletRoot(prefix, serial, outlet.number);
    topics.set(`${base}/state`, onOff(outlet.physicalState));
    topics.set(`${base}/saved`, onOff(outlet.state));
    topics.set(`${base}/temporary`, onOff(outlet.transientState));
    topics.set(`${base}/pending`, pendingWord(outlet));
    topics.set(`${base}/locked`, String(outlet.locked));
    topics.set(`${base}/critical`, String(outlet.critical));
    topics.set(`${base}/name`, outlet.name);
    const held = reservationOf(reservations, summary.id, outlet.number);
    topics.set(
      `${base}/reservation`,
      JSON.stringify(
        held
          ? { holder: held.holder, until: new Date(held.expiresAt).toISOString(), reason: held.reason }
          : null,
      ),
    );
  }
  for (const meter of state?.meters ?? []) {
    if (meter.internal) continue;
    topics.set(
      `${root}/meter/${meterLevel(meter.key)}`,
      JSON.stringify({ value: meter.value, unit: meter.unit }),
    );
  }
  return topics;
}

/** A command topic's parts: `<prefix>/<serial-level>/outlet/<n>/set`, or null for any other topic. */
export function parseCommandTopic(
  prefix: string,
  topic: string,
): { serialLevel: string; outlet: number } | null {
  if (!topic.startsWith(`${prefix}/`)) return null;
  const match = /^([A-Za-z0-9_-]+)\/outlet\/(\d{1,3})\/set$/.exec(topic.slice(prefix.length + 1));
  return match ? { serialLevel: match[1]!, outlet: Number(match[2]) } : null;
}

/**
 * The controller whose own topic root (`roots`: root → controller id) `topic` is under, or null. With
 * one root inside another (`lab/a` and `lab/a/b`), the deepest one owns the message.
 */
export function unitUnder(
  roots: ReadonlyMap<string, string>,
  topic: string,
): { controllerId: string; root: string } | null {
  let found: { controllerId: string; root: string } | null = null;
  for (const [root, id] of roots)
    if (topic.startsWith(`${root}/`) && root.length > (found?.root.length ?? -1))
      found = { controllerId: id, root };
  return found;
}
