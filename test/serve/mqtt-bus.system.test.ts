/**
 * The MQTT bus in process against a real Mosquitto, over a stand-in Core and leadership: a standby stays
 * off the broker and the leader alone publishes; a service that loses the lead says `offline` and leaves;
 * the units' own topic roots (the controllers' `mqttTopic`) are followed as they change, their messages
 * handed to the Core as hints and a message on a unit's own `/set` reported. Waits are for messages and
 * the broker's log lines.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventSink, Handlers } from '../../src-preload/contract';
import type { ControllerState, ControllerSummary } from '../../src-preload/model';
import type { Leadership } from '../../src-main/core/index';
import { startBus, type RunningBus } from '../../src-main/serve/mqtt/bus';
import type { MqttConfig } from '../../src-main/serve/mqtt/mqtt-options';
import { scratchDir, cleanUpServe } from './built-serve';
import { cleanUpBrokers, publish, startBroker, subscribe } from '../system/mosquitto';

const running: RunningBus[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((bus) => bus.close()));
  await cleanUpBrokers();
  await cleanUpServe();
});

const USERS = { plugboard: 'pb-secret-one', viewer: 'viewer-secret', 'unit-a': 'unit-secret' };
const SERIAL = 'LPC9000777';

type Saved = ControllerSummary & { mqttTopic: string | null };

function summary(mqttTopic: string | null): Saved {
  return {
    id: 'c1',
    name: 'bench-a',
    url: 'http://192.0.2.7',
    auth: 'digest',
    user: 'admin',
    hasSecret: true,
    fingerprint: null,
    colour: '#888',
    order: 0,
    demo: false,
    mqttTopic,
  };
}

const STATE = {
  id: 'c1',
  status: 'online',
  problem: null,
  identity: {
    controllerName: 'DLI',
    model: 'LPC9',
    serial: SERIAL,
    firmware: '1.12.14.0',
    relayFirmware: '1.4',
    hostname: null,
  },
  capabilities: null,
  outlets: [
    {
      number: 1,
      name: 'Router',
      state: true,
      transientState: true,
      physicalState: true,
      locked: false,
      critical: false,
      cycleDelay: null,
      access: true,
      pending: null,
      cycleEndsAt: null,
    },
  ],
  meters: null,
  scripts: null,
  users: null,
  sshEnabled: null,
  relayTiming: { cycleDelay: null, sequenceDelay: null },
  lastUpdate: 0,
  rebootingSince: null,
} as ControllerState;

/** A Core that answers the bus's reads and records the hints it is given. */
function standInCore(first: Saved) {
  const sinks = new Set<EventSink>();
  const said: { id: string; outlet: number | null; topic: string }[] = [];
  const setSeen: string[] = [];
  const wakers = new Set<() => void>();
  const handlers = {
    'app/snapshot': async () => ({ controllers: [first], states: [STATE] }),
    'fleet/inventory': async () => [],
    'reservations/list': async () => [],
  } as unknown as Handlers;
  const heard = () => wakers.forEach((wake) => wake());
  return {
    said,
    setSeen,
    emit: ((name, payload) => sinks.forEach((sink) => sink(name, payload))) as EventSink,
    until: (check: () => boolean) =>
      new Promise<void>((resolve) => {
        const wake = () => {
          if (!check()) return;
          wakers.delete(wake);
          resolve();
        };
        wakers.add(wake);
        wake();
      }),
    core: {
      subscribe(sink: EventSink) {
        sinks.add(sink);
        return () => sinks.delete(sink);
      },
      handlersAs: () => handlers,
      unitSaid(id: string, message: { outlet: number | null; topic: string }) {
        said.push({ id, outlet: message.outlet, topic: message.topic });
        heard();
      },
      unitSetSeen(_id: string, topic: string) {
        setSeen.push(topic);
        heard();
      },
    },
  };
}

/** A leadership the test hands over by hand. */
function handLeadership(leads: boolean) {
  const listeners = new Set<(leads: boolean) => void | Promise<void>>();
  const leadership = {
    self: 'lab-a',
    leads: () => leads,
    leader: () => null,
    assertMayWrite: () => undefined,
    onChange(listener: (leads: boolean) => void | Promise<void>) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Leadership;
  return {
    leadership,
    async set(next: boolean) {
      leads = next;
      for (const listener of listeners) await listener(next);
    },
  };
}

describe('the MQTT bus under a leadership', () => {
  it(
    'is on the broker only while it leads, and follows the units’ own topics as hints',
    { timeout: 120_000 },
    async () => {
      const broker = await startBroker({ dir: scratchDir('plugboard-mqtt-bus-'), users: USERS });
      const config: MqttConfig = {
        url: `mqtt://127.0.0.1:${broker.port}`,
        credentials: { user: 'plugboard', password: USERS.plugboard },
        credentialSource: 'test',
        ca: null,
        fingerprint: null,
        client: { name: 'ha', role: 'operator', written: null },
        prefix: 'plugboard',
        haDiscovery: true,
      };
      const stand = standInCore(summary('lab/units/bench-a/'));
      const hand = handLeadership(false);
      const watch = await subscribe(broker, 'viewer', ['plugboard/#']);
      const log: string[] = [];
      const bus = await startBus({
        core: stand.core,
        config,
        caller: { door: 'mqtt', who: 'ha', role: 'operator' },
        serviceName: 'lab a',
        version: '0.0.0-test',
        leadership: hand.leadership,
        log: (message) => log.push(message),
      });
      running.push(bus);

      // A standby: not connected. Leading: connected, everything published, then online.
      await hand.set(true);
      await broker.logLine(/New client connected .* as plugboard-lab_a /);
      await watch.next((m) => m.topic === 'plugboard/status' && m.payload === 'online');
      expect(watch.messages.find((m) => m.topic === `plugboard/${SERIAL}/outlet/1/state`)?.payload).toBe(
        'ON',
      );
      expect(broker.log().match(/New client connected/g)).toHaveLength(2);

      await publish(broker, 'unit-a', 'lab/units/bench-a/outlets/0', '0');
      await publish(broker, 'unit-a', 'lab/units/bench-a/outlets/0/set', '0');
      await stand.until(() => stand.said.length === 1 && stand.setSeen.length === 1);
      expect(stand.said).toEqual([{ id: 'c1', outlet: 1, topic: 'lab/units/bench-a/outlets/0' }]);
      expect(stand.setSeen).toEqual(['lab/units/bench-a/outlets/0/set']);

      // The controller's root changes: the old one is left, the new one followed.
      stand.emit('controllers/changed', [summary('lab/units/bench-a/v2')]);
      await broker.logLine(/plugboard-lab_a \d lab\/units\/bench-a\/v2\/#/);
      await broker.logLine(/plugboard-lab_a lab\/units\/bench-a\/#/);
      await publish(broker, 'unit-a', 'lab/units/bench-a/v2/outlets/3', '1');
      await stand.until(() => stand.said.length === 2);
      await publish(broker, 'unit-a', 'lab/units/bench-a/outlets/1', '1');
      await publish(broker, 'unit-a', 'lab/units/bench-a/v2/outlets/4', '1');
      await stand.until(() => stand.said.length === 3);
      expect(stand.said.slice(1).map((s) => s.topic)).toEqual([
        'lab/units/bench-a/v2/outlets/3',
        'lab/units/bench-a/v2/outlets/4',
      ]);

      // Losing the lead: offline, then off the broker.
      const from = watch.messages.length;
      await hand.set(false);
      await watch.next((m) => m.topic === 'plugboard/status' && m.payload === 'offline', from);
      await broker.logLine(/Client plugboard-lab_a (disconnected|closed its connection)/);
      expect(log.filter((line) => line.startsWith('MQTT: connected'))).toHaveLength(1);
    },
  );
});
