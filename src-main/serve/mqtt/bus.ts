/**
 * The lab on MQTT (`plugboard serve --mqtt`): the Core's state as retained topics (topics.ts) and Home
 * Assistant discovery (discovery.ts), published as the Core's events say something changed (never on a
 * timer), everything again after each (re)connection, each topic once; commands on `…/set` through the
 * Core as the door's one client (inbound.ts); the units' own topics as hints for the Core.
 *
 * Under a leadership only the leader is on the broker: a standby stays disconnected (it could neither act
 * on a command nor know the present state, since it polls nothing), and a service that loses the lead says
 * `offline` and leaves, so the one that takes over publishes alone.
 */
import type { IPublishPacket, MqttClient } from 'mqtt';
import type { EventSink, Handlers } from '../../../src-preload/contract';
import type {
  ActivityDoor,
  Caller,
  ControllerState,
  ControllerSummary,
  Reservation,
} from '../../../src-preload/model';
import type { Leadership } from '../../core/index';
import type { Logger } from '../../shared/logging';
import { BusConnection, STOP_BOUND_MS } from './connection';
import { discoveryNode, discoveryTopics } from './discovery';
import { Inbound, type UnitHints } from './inbound';
import { HA_PREFIX, type MqttConfig } from './mqtt-options';
import type { CommandAnswer } from './commands';
import { controllerTopics, serviceTopic, topicId, unitUnder, type Retained } from './topics';

/** What the bus needs of the Core: its events, its calls as the door's client, and the unit hints. */
export interface BusCore extends UnitHints {
  subscribe(sink: EventSink): () => void;
  handlersAs(caller: Caller | ActivityDoor): Handlers;
}

export interface BusOptions {
  core: BusCore;
  config: MqttConfig;
  /** Whom commands act as (door `mqtt`, the client's name, role and resolved scope). */
  caller: Caller;
  /** This service's name (the MQTT client id is made of it). */
  serviceName: string;
  version: string;
  leadership: Leadership | null;
  log: Logger;
}

export interface RunningBus {
  close(): Promise<void>;
}

export async function startBus(o: BusOptions): Promise<RunningBus> {
  const { config, log } = o;
  const handlers = (): Handlers => o.core.handlersAs(o.caller);
  const saved = new Map<string, ControllerSummary>();
  const states = new Map<string, ControllerState>();
  const serials = new Map<string, string>();
  let reservations: Reservation[] = [];
  const desired = new Map<string, Retained>();
  const published: Retained = new Map();
  let live = false;
  let flushing: Promise<void> = Promise.resolve();

  const recompute = (id: string): void => {
    const summary = saved.get(id);
    const serial = states.get(id)?.identity?.serial || serials.get(id);
    if (!summary || !serial) {
      desired.delete(id);
      return;
    }
    serials.set(id, serial);
    const state = states.get(id) ?? null;
    const topics = controllerTopics(config.prefix, serial, summary, state, reservations);
    if (config.haDiscovery) {
      const input = {
        prefix: config.prefix,
        serial,
        name: summary.name,
        state,
        version: o.version,
        url: summary.url,
      };
      for (const [topic, payload] of discoveryTopics(input)) topics.set(topic, payload);
    }
    desired.set(id, topics);
  };

  /** Publish what differs from what this connection published; an empty retained payload removes. */
  const flush = (): Promise<void> =>
    (flushing = flushing.then(async () => {
      const client = connection.client;
      if (!live || !client) return;
      const wanted: Retained = new Map([...desired.values()].flatMap((m) => [...m]));
      const sends: Promise<unknown>[] = [];
      for (const [topic, payload] of wanted) {
        if (published.get(topic) === payload) continue;
        published.set(topic, payload);
        sends.push(client.publishAsync(topic, payload, { qos: 1, retain: true }));
      }
      for (const topic of [...published.keys()].filter((t) => !wanted.has(t))) {
        published.delete(topic);
        sends.push(client.publishAsync(topic, '', { qos: 1, retain: true }));
      }
      await Promise.all(sends).catch((error: unknown) => log('MQTT: a publish failed', error));
    }));

  const readAll = async (): Promise<void> => {
    const snapshot = await handlers()['app/snapshot']({});
    const inventory = await handlers()
      ['fleet/inventory']({})
      .catch(() => []);
    reservations = await handlers()
      ['reservations/list']({})
      .catch(() => reservations);
    saved.clear();
    for (const summary of snapshot.controllers) saved.set(summary.id, summary);
    for (const state of snapshot.states) states.set(state.id, state);
    for (const row of inventory)
      if (row.serial && !serials.has(row.controllerId)) serials.set(row.controllerId, row.serial);
    desired.clear();
    for (const id of saved.keys()) recompute(id);
  };

  const sink: EventSink = (name, payload) => {
    if (name === 'state/changed') {
      const state = payload as ControllerState;
      if (!saved.has(state.id)) return;
      states.set(state.id, state);
      recompute(state.id);
    } else if (name === 'reservations/changed') {
      reservations = payload as Reservation[];
      for (const id of saved.keys()) recompute(id);
    } else if (name === 'controllers/changed') {
      const list = payload as ControllerSummary[];
      saved.clear();
      for (const summary of list) saved.set(summary.id, summary);
      for (const id of [...states.keys()]) if (!saved.has(id)) states.delete(id);
      desired.clear();
      for (const id of saved.keys()) recompute(id);
      void resubscribeUnits();
    } else return;
    void flush();
  };

  const unitRoots = new Map<string, string>();
  const rootsWanted = (): Map<string, string> =>
    new Map(
      [...saved.values()]
        .filter((s) => s.mqttTopic)
        .map((s) => [s.mqttTopic!.replace(/\/+$/, ''), s.id] as [string, string]),
    );
  const resubscribeUnits = async (): Promise<void> => {
    const client = connection.client;
    if (!client) return;
    const wanted = rootsWanted();
    const gone = [...unitRoots.keys()].filter((root) => !wanted.has(root));
    const added = [...wanted.keys()].filter((root) => !unitRoots.has(root));
    unitRoots.clear();
    for (const [root, id] of wanted) unitRoots.set(root, id);
    await Promise.all([
      gone.length ? client.unsubscribeAsync(gone.map((r) => `${r}/#`)) : null,
      added.length
        ? client.subscribeAsync(
            added.map((r) => `${r}/#`),
            { qos: 0 },
          )
        : null,
    ]).catch((error: unknown) => log('MQTT: could not follow the units’ own topics', error));
  };

  const node = discoveryNode(config.prefix);
  const inbound = new Inbound({
    prefix: config.prefix,
    handlers,
    hints: o.core,
    log,
    controllerOf(level) {
      for (const [id, serial] of serials)
        if (saved.has(id) && topicId(serial) === level) return { controllerId: id, serial };
      return null;
    },
    unitOf: (topic) => unitUnder(unitRoots, topic),
    answer: (topic, answer, packet) => answerCommand(connection.client, topic, answer, packet),
  });

  /** A retained discovery entry of ours that nothing publishes now (a removed controller, or discovery off). */
  const staleDiscovery = (topic: string, packet: IPublishPacket): void => {
    // Retained entries arrive right after the subscription, possibly before the first publishing starts:
    // what is wanted is known by then (read before subscribing).
    if (!packet.retain || packet.payload.length === 0) return;
    if ([...desired.values()].some((m) => m.has(topic))) return;
    const object = topic.split('/')[3] ?? '';
    // A controller not read yet keeps its entries until its outlets are known.
    const waiting = [...serials].some(
      ([id, serial]) =>
        saved.has(id) && !states.get(id)?.identity && object.startsWith(`${topicId(serial)}_`),
    );
    if (config.haDiscovery && waiting) return;
    void connection.client?.publishAsync(topic, '', { qos: 1, retain: true }).catch(() => undefined);
  };

  const connection = new BusConnection({
    config,
    clientId: `plugboard-${topicId(o.serviceName)}`.slice(0, 64),
    will: { topic: serviceTopic(config.prefix), payload: 'offline' },
    log,
    async onConnect(client: MqttClient) {
      live = false;
      published.clear();
      unitRoots.clear();
      await readAll();
      // Not our own messages back (no local); the retain flag as published, so a command published
      // retained while subscribed is seen as one (and never acted on).
      await client.subscribeAsync([`${config.prefix}/+/outlet/+/set`, `${HA_PREFIX}/+/${node}/+/config`], {
        qos: 1,
        nl: true,
        rap: true,
      });
      await resubscribeUnits();
      live = true;
      await flush();
      await client.publishAsync(serviceTopic(config.prefix), 'online', { qos: 1, retain: true });
    },
    onMessage(topic, payload, packet) {
      if (topic.startsWith(`${HA_PREFIX}/`)) staleDiscovery(topic, packet);
      else inbound.heard(topic, payload, packet);
    },
  });

  const unsubscribe = o.core.subscribe(sink);
  const leads = (): boolean => o.leadership?.leads() ?? true;
  let running = leads();
  if (running) connection.start();
  const unfollow = o.leadership?.onChange(async (nowLeads) => {
    if (nowLeads === running) return;
    running = nowLeads;
    live = false;
    if (nowLeads) connection.start();
    else await connection.stop({ topic: serviceTopic(config.prefix), payload: 'offline' });
  });
  return {
    async close() {
      unfollow?.();
      unsubscribe();
      live = false;
      // What is being published finishes first, unless the broker stops acknowledging.
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([flushing, new Promise((resolve) => (bound = setTimeout(resolve, STOP_BOUND_MS)))]);
      clearTimeout(bound);
      await connection.stop({ topic: serviceTopic(config.prefix), payload: 'offline' });
    },
  };
}

function answerCommand(
  client: MqttClient | null,
  topic: string,
  answer: CommandAnswer,
  packet: IPublishPacket,
): void {
  if (!client) return;
  const body = JSON.stringify(answer);
  const resultTopic = topic.replace(/\/set$/, '/result');
  void client.publishAsync(resultTopic, body, { qos: 1 }).catch(() => undefined);
  const responseTopic = packet.properties?.responseTopic;
  if (!responseTopic) return;
  const correlationData = packet.properties?.correlationData;
  void client
    .publishAsync(responseTopic, body, { qos: 1, properties: correlationData ? { correlationData } : {} })
    .catch(() => undefined);
}
