/**
 * The built `plugboard serve --mqtt` against a real Mosquitto (test/system/mosquitto.ts: TLS with a test
 * CA, a password file, the access list docs/mqtt.md shows), watched and driven by Mosquitto's own
 * clients: the retained state and Home Assistant discovery of every outlet and meter, commands answered
 * on the MQTT 5 response topic and the 3.1.1 result topic, refusals with the Core's sentence, a retained
 * or repeated command never acted on, a broker restart (everything republished once, a change made
 * meanwhile not lost), the last will, and discovery turned off. Every wait is for a message or a line.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRunningCore } from '../../src-main/link';
import { storedActivity } from '../core/stored-activity';
import { cleanUpServe, savedBench, scratchDir, serveBuilt as serve, type SavedBench } from './built-serve';
import {
  cleanUpBrokers,
  publish,
  startBroker,
  subscribe,
  type Broker,
  type Message,
} from '../system/mosquitto';

afterEach(async () => {
  // The broker's folder is a scratch folder of the service's: stop it before the folders go.
  await cleanUpBrokers();
  await cleanUpServe();
});

const USERS = { plugboard: 'pb-secret-one', ha: 'ha-secret-one', viewer: 'viewer-secret' };

async function mqttBench(): Promise<SavedBench & { broker: Broker; serial: string; meters: number }> {
  const bench = await savedBench();
  const broker = await startBroker({ dir: scratchDir('plugboard-mqtt-'), users: USERS });
  // As the systemd credential plugboard.mqtt: never on the command line.
  writeFileSync(path.join(bench.credentials, 'plugboard.mqtt'), `plugboard:${USERS.plugboard}\n`, {
    mode: 0o600,
  });
  const meters = Object.keys(bench.emu.device.meters()).length;
  return { ...bench, broker, serial: bench.emu.device.serial, meters };
}

/** The broker's certificate's SHA-256 fingerprint, to pin it. */
function brokerFingerprint(broker: Broker): string {
  return new X509Certificate(readFileSync(path.join(broker.dir, 'server.crt'))).fingerprint256;
}

/** Served with the broker trusted by the test CA, or (`trust` given) by a pinned fingerprint. */
function serveMqtt(
  bench: SavedBench & { broker: Broker },
  extra: string[] = [],
  trust?: string[],
  client: string | null = 'ha[operator]',
) {
  return serve(
    [
      '--listen',
      'api=127.0.0.1:0',
      '--config-dir',
      bench.configDir,
      '--mqtt',
      `mqtts://127.0.0.1:${bench.broker.tlsPort}`,
      ...(trust ?? ['--mqtt-ca', bench.broker.caFile]),
      ...(client ? ['--mqtt-client', client] : []),
      ...extra,
    ],
    { CREDENTIALS_DIRECTORY: bench.credentials },
  );
}

const online = (m: Message) => m.topic === 'plugboard/status' && m.payload === 'online';
const json = (m: Message) => JSON.parse(m.payload) as Record<string, unknown>;
/** The last payload of each topic. */
const latest = (all: Message[]) => new Map(all.map((m) => [m.topic, m.payload]));

/** Every outlet's switch and state, every meter's sensor, and the controller online. */
function complete(all: Message[], serial: string, meters: number): boolean {
  const seen = latest(all);
  const root = `plugboard/${serial}`;
  const sensors = [...seen].filter(
    ([t, p]) => p.includes('"model"') && t.startsWith(`homeassistant/sensor/plugboard/${serial}_meter_`),
  );
  return (
    seen.get(`${root}/status`) === 'online' &&
    sensors.length === meters &&
    [1, 2, 3, 4, 5, 6, 7, 8].every(
      (n) =>
        seen.get(`homeassistant/switch/plugboard/${serial}_outlet_${n}/config`) &&
        seen.has(`${root}/outlet/${n}/state`),
    )
  );
}

/** No topic was sent the same payload twice in a row (a change is sent once; a doubled publish repeats). */
function doubled(all: Message[]): string[] {
  const last = new Map<string, string>();
  const twice: string[] = [];
  for (const m of all) {
    if (last.get(m.topic) === m.payload) twice.push(m.topic);
    last.set(m.topic, m.payload);
  }
  return twice;
}

describe('plugboard serve --mqtt with a real broker', () => {
  it(
    'publishes every outlet and meter with discovery, switches on …/set with an answer, refuses a reserved or critical outlet with its sentence, and never acts on a retained or repeated command',
    { timeout: 180_000 },
    async () => {
      const bench = await mqttBench();
      const { broker, serial, emu } = bench;
      emu.device.setCritical(2, true);
      const watch = await subscribe(broker, 'viewer', ['plugboard/#', 'homeassistant/#']);
      const service = serveMqtt(bench);
      await service.line(/^Ready\.$/);
      await watch.next(online);
      await watch.until((all) => complete(all, serial, bench.meters));
      const seen = latest(watch.messages);
      const root = `plugboard/${serial}`;
      for (let n = 1; n <= 8; n++) {
        const config = JSON.parse(seen.get(`homeassistant/switch/plugboard/${serial}_outlet_${n}/config`)!);
        expect(config).toMatchObject({
          unique_id: `plugboard_${serial}_outlet_${n}`,
          state_topic: `${root}/outlet/${n}/state`,
          command_topic: `${root}/outlet/${n}/set`,
          availability_mode: 'all',
          availability: [{ topic: 'plugboard/status' }, { topic: `${root}/status` }],
          device: {
            identifiers: [`plugboard_${serial}`],
            serial_number: serial,
            model: 'LPC9',
            name: 'bench-a',
          },
        });
        expect(seen.get(`${root}/outlet/${n}/state`)).toBe(n <= 4 ? 'ON' : 'OFF');
        for (const leaf of ['saved', 'temporary', 'pending', 'locked', 'critical', 'reservation'])
          expect(seen.has(`${root}/outlet/${n}/${leaf}`), leaf).toBe(true);
      }
      expect(seen.get(`${root}/outlet/3/critical`)).toBe('true');
      const sensors = [...seen.keys()].filter((t) =>
        t.startsWith(`homeassistant/sensor/plugboard/${serial}_meter_`),
      );
      expect(sensors).toHaveLength(bench.meters);
      const voltage = sensors.map((t) => JSON.parse(seen.get(t)!)).find((c) => c.device_class === 'voltage');
      expect(voltage).toMatchObject({ unit_of_measurement: 'V', state_class: 'measurement' });
      expect(json({ ...watch.messages[0]!, payload: seen.get(voltage.state_topic)! })).toMatchObject({
        unit: 'V',
      });
      expect(doubled(watch.messages)).toEqual([]);

      // A reservation held by someone else, taken in the service's Core.
      const link = (await findRunningCore(bench.configDir))!;
      await link.handlersAs({ door: 'cli', who: 'alice' })['reservations/take']({
        target: { kind: 'outlet', controllerId: bench.controller.id, outlet: 2 },
        reason: 'flashing firmware',
        durationMs: 3_600_000,
      });
      await watch.next((m) => m.topic === `${root}/outlet/2/reservation` && m.payload.includes('"alice"'));

      const ask = async (outlet: number, message: string, correlation: string) => {
        const from = watch.messages.length;
        await publish(broker, 'ha', `${root}/outlet/${outlet}/set`, message, [
          '-V',
          '5',
          '-D',
          'publish',
          'response-topic',
          'plugboard/reply/ha/answers',
          '-D',
          'publish',
          'correlation-data',
          correlation,
        ]);
        return json(
          await watch.next(
            (m) => m.topic === 'plugboard/reply/ha/answers' && m.correlation === correlation,
            from,
          ),
        );
      };
      expect(await ask(1, 'OFF', 'c-1')).toEqual({ ok: true, outlet: `${serial}-1`, command: 'OFF' });
      await watch.next((m) => m.topic === `${root}/outlet/1/state` && m.payload === 'OFF');
      expect(emu.device.outlet(0).physicalState).toBe(false);
      // The same request again: the first answer, no second action.
      expect(await ask(1, 'OFF', 'c-1')).toEqual({ ok: true, outlet: `${serial}-1`, command: 'OFF' });

      const reserved = await ask(2, 'OFF', 'c-2');
      expect(reserved).toMatchObject({ ok: false, code: 'RESERVED' });
      expect(reserved.message).toMatch(
        /^Outlet 2 on bench-a is reserved by alice until .+: flashing firmware\.$/,
      );
      const critical = await ask(3, 'OFF', 'c-3');
      expect(critical).toMatchObject({ ok: false, code: 'CRITICAL_UNCONFIRMED' });
      expect(critical.message).toContain(`"OFF confirm=${serial}-3"`);
      expect(await ask(3, `OFF confirm=${serial}-2`, 'c-4')).toMatchObject({ ok: false, code: 'BAD_INPUT' });
      expect([emu.device.outlet(1).physicalState, emu.device.outlet(2).physicalState]).toEqual([true, true]);
      expect(await ask(3, `OFF confirm=${serial}-3`, 'c-5')).toMatchObject({ ok: true });
      expect(emu.device.outlet(2).physicalState).toBe(false);

      // A retained command: answered on the result topic (MQTT 3.1.1), never acted on.
      let from = watch.messages.length;
      await publish(broker, 'ha', `${root}/outlet/4/set`, 'OFF', ['-r', '-V', '311']);
      const stale = json(await watch.next((m) => m.topic === `${root}/outlet/4/result`, from));
      expect(stale).toMatchObject({ ok: false, code: 'BAD_INPUT' });
      expect(stale.message).toMatch(/^A retained command is never acted on/);
      await publish(broker, 'ha', `${root}/outlet/4/set`, '', ['-r']);
      from = watch.messages.length;
      await publish(broker, 'ha', `${root}/outlet/1/set`, 'ON id=job-7', ['-V', '311']);
      expect(json(await watch.next((m) => m.topic === `${root}/outlet/1/result`, from))).toEqual({
        ok: true,
        outlet: `${serial}-1`,
        command: 'ON',
        id: 'job-7',
      });
      expect(emu.device.outlet(3).physicalState).toBe(true);
      // The viewer may not publish commands (the broker's access list): the service never hears it.
      await publish(broker, 'viewer', `${root}/outlet/4/set`, 'OFF');

      from = watch.messages.length;
      service.child.kill('SIGTERM');
      expect((await service.exit).code).toBe(0);
      await watch.next((m) => m.topic === 'plugboard/status' && m.payload === 'offline', from);
      const acted = storedActivity(bench.configDir).filter((e) => e.source === 'mqtt');
      expect(acted.map((e) => [e.outlet, e.action, e.who, e.result])).toEqual([
        [1, 'off', 'ha', 'ok'],
        [2, 'refused', 'ha', 'error'],
        [3, 'off', 'ha', 'ok'],
        [1, 'on', 'ha', 'ok'],
      ]);
      expect(emu.device.outlet(3).physicalState).toBe(true);
    },
  );

  it(
    'republishes everything once after a broker restart (a change made meanwhile included), says offline by its last will when killed, and removes the discovery entries with --no-ha-discovery',
    { timeout: 180_000 },
    async () => {
      const bench = await mqttBench();
      const { broker, serial, emu } = bench;
      const root = `plugboard/${serial}`;
      // A certificate other than the pinned one: refused before the login is sent, and the service goes on.
      const wrong = serveMqtt(bench, [], ['--mqtt-fingerprint', 'AB'.repeat(32)]);
      await wrong.errLine(
        /MQTT: cannot reach .*the broker's certificate is SHA-256 .*, not the pinned AB:AB/,
      );
      wrong.child.kill('SIGTERM');
      expect((await wrong.exit).code).toBe(0);
      expect(broker.log()).not.toMatch(/as plugboard-/);

      const service = serveMqtt(bench, [], ['--mqtt-fingerprint', brokerFingerprint(broker)]);
      await service.errLine(/MQTT: connected to mqtts:/);
      const link = (await findRunningCore(bench.configDir))!;

      // The broker restarts, forgetting every retained message, and at first refuses the service.
      await broker.stop();
      await service.errLine(/MQTT: the connection to .* was lost/);
      const { plugboard: _password, ...others } = USERS;
      broker.setUsers(others);
      await broker.start();
      await service.errLine(/MQTT: .* refused the connection \(Not authorized\)/);
      // Meanwhile outlet 6 is switched on at the unit; the service sees it by polling.
      const seenOn = new Promise<void>((resolve) =>
        link.subscribe((name, payload) => {
          const state = payload as { outlets?: { number: number; physicalState: boolean }[] };
          if (name === 'state/changed' && state.outlets?.find((o) => o.number === 6)?.physicalState)
            resolve();
        }),
      );
      emu.device.setOutlet(5, { state: true });
      await seenOn;
      const watch = await subscribe(broker, 'viewer', ['plugboard/#', 'homeassistant/#']);
      broker.setUsers(USERS);
      broker.reload();
      await watch.next(online);
      // Everything was republished, each topic once, with the change made during the outage.
      expect(complete(watch.messages, serial, bench.meters)).toBe(true);
      expect(doubled(watch.messages)).toEqual([]);
      expect(latest(watch.messages).get(`${root}/outlet/6/state`)).toBe('ON');
      expect(watch.messages.every((m) => !m.retained)).toBe(true);

      // Killed: the broker publishes its last will.
      let from = watch.messages.length;
      service.child.kill('SIGKILL');
      await service.exit;
      await watch.next((m) => m.topic === 'plugboard/status' && m.payload === 'offline', from);

      // Started again without discovery: every entry it published is removed (an empty retained payload).
      from = watch.messages.length;
      // (without --mqtt-client: the door is an observer)
      const again = serveMqtt(bench, ['--no-ha-discovery'], undefined, null);
      await watch.until(
        (all) =>
          all.slice(from).filter((m) => m.topic.startsWith('homeassistant/') && m.payload === '').length ===
          8 + bench.meters,
      );
      await watch.next(online, from);
      // The default identity may only read: a command is refused, saying how to give it a role.
      from = watch.messages.length;
      await publish(broker, 'ha', `${root}/outlet/1/set`, 'OFF', ['-V', '311']);
      const forbidden = json(await watch.next((m) => m.topic === `${root}/outlet/1/result`, from));
      expect(forbidden).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      expect(forbidden.message).toMatch(
        /^mqtt .*Commands over MQTT act as the one client --mqtt-client names/,
      );
      expect(emu.device.outlet(0).physicalState).toBe(true);
      again.child.kill('SIGTERM');
      expect((await again.exit).code).toBe(0);
    },
  );
});
