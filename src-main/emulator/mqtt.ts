/**
 * The unit's own MQTT client (the External APIs page's MQTT section, dli-rest-api.md §13): given a broker
 * and a topic root, it publishes each outlet's state as `1` or `0` on `<root>/outlets/<index>` (the
 * unit's default subtrees `outlets/0`…`outlets/7`, 0-based) — "Allow read"; and with "Allow write" it
 * obeys `<root>/outlets/<index>/set` from anyone on the broker.
 *
 * Which of its three states a real unit publishes, and whether it retains the message or publishes on
 * connecting, is not known (no capture shows it). The emulator publishes the physical state, when the
 * relay changes, QoS 0, not retained: the least a client may count on. Plugboard takes every message as
 * a hint to read the outlets, never as their state, so it depends on none of these choices.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { Controller } from './controller';

export interface UnitMqttOptions {
  /** `mqtt://host:port` (or mqtts://, ws://): the broker the unit is a client of. */
  broker: string;
  /** The topic root set on the unit. */
  topic: string;
  /** The unit's "Allow write": obey `<root>/outlets/<index>/set` (`1`/`0`, `ON`/`OFF`, `true`/`false`). */
  allowWrite: boolean;
  /** The unit's client id (default: `dli-<serial>`). */
  clientId?: string;
}

export interface UnitMqtt {
  /** Resolves once the unit is connected to its broker (and, with "Allow write", subscribed to its sets). */
  readonly ready: Promise<void>;
  /** Messages published by the unit so far. */
  readonly published: number;
  close(): Promise<void>;
}

const ON = new Set(['1', 'on', 'true']);
const OFF = new Set(['0', 'off', 'false']);

/** The topic of an outlet's state (index 0 = outlet 1). */
export function outletTopic(root: string, index: number): string {
  return `${root}/outlets/${index}`;
}

export function startUnitMqtt(controller: Controller, options: UnitMqttOptions): UnitMqtt {
  const root = options.topic.replace(/\/+$/, '');
  const client: MqttClient = mqtt.connect(options.broker, {
    clientId: options.clientId ?? `dli-${controller.config.serial}`,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
  });
  let published = 0;
  // A unit without its broker still switches: a failed connect or publish is only logged.
  client.on('error', (error) => console.error(`emulator: MQTT: ${error.message}`));
  const ready = new Promise<void>((resolve) => {
    client.on('connect', () => {
      if (!options.allowWrite) return resolve();
      client.subscribe(`${root}/outlets/+/set`, { qos: 0 }, (error) => {
        if (error) console.error(`emulator: MQTT: could not subscribe to the sets: ${error.message}`);
        resolve();
      });
    });
  });
  if (options.allowWrite) {
    client.on('message', (topic, payload) => {
      const match = /\/outlets\/(\d+)\/set$/.exec(topic);
      const index = match ? Number(match[1]) : -1;
      const word = payload.toString('utf8').trim().toLowerCase();
      const on = ON.has(word) ? true : OFF.has(word) ? false : null;
      if (on === null || index < 0 || index >= controller.relay.count) return;
      // As the unit's own page would: a locked outlet stays as it is.
      if (controller.relay.outlet(index).locked) return;
      controller.relay.setState(index, on);
    });
  }
  const stop = controller.relay.onPhysicalChange((index, on) => {
    if (!client.connected) return;
    published++;
    client.publish(outletTopic(root, index), on ? '1' : '0', { qos: 0, retain: false });
  });
  return {
    ready,
    get published() {
      return published;
    },
    async close() {
      stop();
      await client.endAsync(true).catch(() => undefined);
    },
  };
}
