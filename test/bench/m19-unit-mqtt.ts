/**
 * 19. A unit that publishes its own outlet changes over MQTT (a real Mosquitto of the bench's own on
 * 127.0.0.1; the emulator's MQTT client as the unit), against the same unit polled. An outside change at
 * the unit (its keypad: `device.setOutlet`, at a random moment of the poll cycle) until it is (a) in the
 * Core's state events — what the window shows — and (b) at an MQTT subscriber of Plugboard's state: the
 * service's own MQTT bus (serve/mqtt, in process on the bench's Core) publishes the outlet's state topic,
 * and a separate client times its arrival; with the unit publishing, also (c) the unit's own message at
 * a subscriber. The same bus follows the unit's topic root and hands its messages to the Core. Both with
 * the default 3 s poll, the window hidden (only the outlets polled); the real-unit profile (5 s
 * `GET relay/outlets/`) and the fast one. With the unit publishing, one untimed change first makes the
 * Core hear it. Then a quiet minute: the outlet reads per minute per unit at the emulator, both modes.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { startBus } from '../../src-main/serve/mqtt/bus';
import { outletRoot, serviceTopic } from '../../src-main/serve/mqtt/topics';
import { startBroker } from '../system/mosquitto';
import { onCleanup } from './cleanup';
import { startCore, type CoreRun } from './core-harness';
import { startLocal } from './emulators';
import { median, now, percentile, sleep } from './numbers';
import { row, type Row } from './results';

const ROOT = 'bench/unit1';
const PREFIX = 'plugboard';
const POLL_MS = 3000;

interface Sample {
  core: number;
  subscriber: number;
  unit: number | null;
}

interface ModeResult {
  samples: Sample[];
  readsPerMinute: number;
  listsPerMinute: number;
}

/** Outlet reads at the emulator (the whole list, and single outlets) since its stats were reset. */
function outletReads(emu: RunningEmulator): { lists: number; all: number } {
  const reads = emu.device.stats.log.filter((e) => e.method === 'GET' && /\/relay\/outlets\//.test(e.path));
  return { lists: reads.filter((e) => /\/relay\/outlets\/$/.test(e.path)).length, all: reads.length };
}

/** Resolves with now() when `topic` next arrives with `payload` at `client`. */
function arrival(client: MqttClient, topic: string, payload: string, timeoutMs = 60_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const onMessage = (got: string, body: Buffer): void => {
      if (got !== topic || body.toString() !== payload) return;
      const at = now();
      client.off('message', onMessage);
      clearTimeout(timer);
      resolve(at);
    };
    const timer = setTimeout(() => {
      client.off('message', onMessage);
      reject(new Error(`Timed out waiting for ${topic} = ${payload}`));
    }, timeoutMs);
    client.on('message', onMessage);
  });
}

async function runMode(
  brokerUrl: string,
  publishing: boolean,
  realUnit: boolean,
  samples: number,
  quietMs: number,
): Promise<ModeResult> {
  const { emulators, close } = await startLocal(1, {
    realUnit,
    initialStates: Array(8).fill(false),
    ...(publishing ? { mqtt: { broker: brokerUrl, topic: ROOT } } : {}),
  });
  const emu = emulators[0]!;
  await emu.mqtt?.ready;
  const run: CoreRun = await startCore([emu.url], { pollIntervalMs: POLL_MS, visible: false });
  const id = run.ids[0]!;
  const watcher = await mqtt.connectAsync(brokerUrl, { reconnectPeriod: 0 });
  const closeWatcher = onCleanup(() => watcher.endAsync(true));
  try {
    await run.online(60_000);
    if (publishing) await run.call('controllers/update', { id, mqttTopic: ROOT });
    // The bus names topics by the unit's serial: read just after the outlets.
    await run.when((states) => Boolean(states.get(id)?.identity?.serial), 'the identity', 60_000);
    const serial = run.states.get(id)!.identity!.serial;
    // The service's bus on the bench's Core: it publishes the lab's state and follows the unit's root.
    const busOnline = arrival(watcher, serviceTopic(PREFIX), 'online');
    await watcher.subscribeAsync([`${PREFIX}/#`, `${ROOT}/#`]);
    const bus = await startBus({
      core: run.core,
      config: {
        url: brokerUrl,
        credentials: null,
        credentialSource: null,
        ca: null,
        fingerprint: null,
        client: { name: 'bench', role: 'observer', written: null },
        prefix: PREFIX,
        haDiscovery: false,
      },
      caller: { door: 'mqtt', who: 'bench', role: 'observer' },
      serviceName: 'bench',
      version: '0.0.0-bench',
      leadership: null,
      log: () => undefined,
    });
    const closeBus = onCleanup(() => bus.close());
    // Online is published once everything is, the unit's root followed first.
    await busOnline;
    if (publishing) {
      // One change first, not timed: the Core hears the unit (its outlets then read at the safety interval).
      const heard = run.when(
        (states) => states.get(id)?.outlets[7]?.state === true,
        'the first change',
        60_000,
      );
      emu.device.setOutlet(7, { state: true });
      await heard;
    }
    const measured: Sample[] = [];
    try {
      for (let i = 0; i < samples; i++) {
        // Anywhere in the poll cycle (and past a 5 s list read on the real-unit profile).
        await sleep(Math.random() * (POLL_MS + (realUnit ? 5000 : 0)));
        const index = i % 7;
        const on = !emu.device.outlet(index).state;
        const inCore = run.when(
          (states) => states.get(id)?.outlets[index]?.state === on,
          `outlet ${index + 1}`,
          60_000,
        );
        const atSubscriber = arrival(
          watcher,
          `${outletRoot(PREFIX, serial, index + 1)}/state`,
          on ? 'ON' : 'OFF',
        );
        const fromUnit = publishing ? arrival(watcher, `${ROOT}/outlets/${index}`, on ? '1' : '0') : null;
        const t0 = now();
        emu.device.setOutlet(index, { state: on });
        const [core, subscriber, unit] = await Promise.all([inCore, atSubscriber, fromUnit]);
        measured.push({
          core: core - t0,
          subscriber: subscriber - t0,
          unit: unit === null ? null : unit - t0,
        });
      }
      // A quiet stretch: what polling alone costs the unit.
      await sleep(realUnit ? 6000 : 1000);
      emu.device.stats.reset();
      await sleep(quietMs);
      const reads = outletReads(emu);
      const perMinute = 60_000 / quietMs;
      return {
        samples: measured,
        readsPerMinute: reads.all * perMinute,
        listsPerMinute: reads.lists * perMinute,
      };
    } finally {
      await closeBus();
    }
  } finally {
    await closeWatcher();
    await run.dispose();
    await close();
  }
}

export async function measureUnitMqtt(quick: boolean): Promise<Row[]> {
  const broker = await startBroker();
  const stopBroker = onCleanup(() => broker.close());
  const quietMs = quick ? 30_000 : 60_000;
  const rows: Row[] = [];
  try {
    for (const realUnit of [true, false]) {
      const profile = realUnit ? 'real-unit profile (5 s outlet list)' : 'fast profile';
      const samples = realUnit ? 12 : 20;
      const polled = await runMode(broker.url, false, realUnit, samples, quietMs);
      const heard = await runMode(broker.url, true, realUnit, samples, quietMs);
      const figures = (result: ModeResult, pick: (s: Sample) => number) => {
        const values = result.samples.map(pick);
        return { median: median(values), p95: percentile(values, 95) };
      };
      for (const [what, pick] of [
        ['in the Core (the window)', (s: Sample) => s.core],
        ['at an MQTT subscriber of Plugboard', (s: Sample) => s.subscriber],
      ] as const) {
        const a = figures(heard, pick);
        const b = figures(polled, pick);
        rows.push(
          row({
            measurement: 19,
            figure: `${profile}: outside change → ${what}, unit publishing, median`,
            value: a.median,
            unit: 'ms',
            // The bar: with the emulator publishing, in the window in under a second.
            target: !realUnit && what.startsWith('in the Core') ? 'p95 < 1000' : '',
            met: !realUnit && what.startsWith('in the Core') ? a.p95 < 1000 : null,
            baselines: [{ name: 'polled only (every 3 s), median', value: b.median }],
            note: `p95 ${Math.round(a.p95)} ms publishing, ${Math.round(b.p95)} ms polled; ${heard.samples.length} and ${polled.samples.length} changes.`,
          }),
        );
      }
      const unit = heard.samples.map((s) => s.unit ?? 0);
      rows.push(
        row({
          measurement: 19,
          figure: `${profile}: outside change → the unit's own message at a subscriber, median`,
          value: median(unit),
          unit: 'ms',
          target: '',
          met: null,
          note: `p95 ${Math.round(percentile(unit, 95))} ms.`,
        }),
        row({
          measurement: 19,
          figure: `${profile}: outlet reads per minute per unit, unit publishing`,
          value: heard.readsPerMinute,
          unit: '/min',
          target: '',
          met: null,
          baselines: [{ name: 'polled only (every 3 s)', value: polled.readsPerMinute }],
          note: `whole lists ${heard.listsPerMinute} and ${polled.listsPerMinute} per minute; ${quietMs / 1000} s without changes, the window hidden, safety interval 30 s.`,
        }),
      );
    }
  } finally {
    await stopBroker();
  }
  return rows;
}
