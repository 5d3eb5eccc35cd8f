/**
 * A unit publishing its own outlet changes to a real Mosquitto broker (started here on 127.0.0.1), the
 * emulator's MQTT client standing in for the unit. A small subscriber of the test's own (mqtt.js, not the
 * service's MQTT door) hands each message to the Core as the door would: `core.unitSaid`, or
 * `core.unitSetSeen` for the unit's own `…/set`. `mosquitto_pub` is an independent client on the broker.
 *
 * The Core's schedule runs on a clock that never moves (a wait of 0 runs at once): its next poll, 30 s
 * away, never comes, so whatever the Core's state events show, a unit's message brought it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { TimerHandle } from '../../../src-main/core';
import type { ControllerSummary } from '../../../src-preload/model';
import { startBroker, type Broker } from '../../system/mosquitto';
import { FakeClock } from '../fake-clock';
import { cleanUp, emulator, newCore, until, type CoreHarness } from '../harness';

const run = promisify(execFile);
const ROOT = 'lab/pdu1';

/** Time stands still; a wait of 0 (a read asked for now) runs on the next turn of the event loop. */
class StillClock extends FakeClock {
  override setTimeout(callback: () => void, ms: number): TimerHandle {
    if (ms > 0) return super.setTimeout(callback, ms);
    return { immediate: setImmediate(callback) } as unknown as TimerHandle;
  }

  override clearTimeout(handle: TimerHandle): void {
    const immediate = (handle as { immediate?: NodeJS.Immediate }).immediate;
    if (immediate) clearImmediate(immediate);
    else super.clearTimeout(handle);
  }
}

let broker: Broker;
const subscribers: MqttClient[] = [];
beforeAll(async () => {
  broker = await startBroker();
});
afterEach(async () => {
  await Promise.all(subscribers.splice(0).map((client) => client.endAsync(true)));
  await cleanUp();
});
afterAll(() => broker?.close());

/** The unit, a Core polling it every 30 s that knows its topic, and the test's subscriber feeding the Core. */
async function publishingUnit(): Promise<
  { h: CoreHarness; id: string; clock: StillClock } & { emu: Awaited<ReturnType<typeof emulator>> }
> {
  const emu = await emulator({
    initialStates: Array(8).fill(false),
    cycleDelay: 0.5,
    mqtt: { broker: broker.url, topic: ROOT, allowWrite: true },
  });
  await emu.mqtt!.ready;
  const clock = new StillClock();
  const h = newCore({ clock, visible: false });
  await h.ok('settings/set', { pollIntervalMs: 30_000 });
  const { id } = await h.ok<ControllerSummary>('controllers/add', {
    url: emu.url,
    name: 'Bench A',
    auth: { kind: 'digest', user: 'admin', password: '1234' },
    mqttTopic: ROOT,
  });
  await until(h, id, (s) => s.status === 'online');
  const subscriber = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
  subscribers.push(subscriber);
  subscriber.on('message', (topic, payload) => {
    if (topic.endsWith('/set')) return h.core.unitSetSeen(id, topic);
    const outlet = /\/outlets\/(\d+)$/.exec(topic);
    h.core.unitSaid(id, { outlet: outlet ? Number(outlet[1]) : null, topic, payload: payload.toString() });
  });
  await subscriber.subscribeAsync(`${ROOT}/#`);
  return { h, id, clock, emu };
}

it('shows an outside change at the unit through its message, with the next poll 30 s away', async () => {
  const { h, id, clock, emu } = await publishingUnit();
  const start = clock.now();
  emu.device.setOutlet(3, { state: true });
  const shown = await until(h, id, (s) => s.outlets[3]?.state === true);
  expect(shown.outlets[3]?.physicalState).toBe(true);
  expect(h.activity()).toContainEqual(
    expect.objectContaining({ controllerId: id, outlet: 4, action: 'on', source: 'outside' }),
  );
  expect(clock.now()).toBe(start);
  expect(emu.mqtt!.published).toBeGreaterThan(0);
});

it('confirms a pending cycle when the unit says its relay is back on, without a poll', async () => {
  const { h, id, emu } = await publishingUnit();
  emu.device.setOutlet(1, { state: true });
  await until(h, id, (s) => s.outlets[1]?.state === true);
  await h.ok('outlets/cycle', { controllerId: id, outlet: 2 });
  // The fast polls that would confirm it never come (time stands still): the unit's "0", then "1".
  await until(h, id, (s) => s.outlets[1]?.pending === null && s.outlets[1]?.physicalState === true);
  expect(h.activity()).toContainEqual(
    expect.objectContaining({ controllerId: id, outlet: 2, action: 'cycle', result: 'ok', source: 'window' }),
  );
});

it("warns about the unit's Allow write when someone switches it through the broker", async () => {
  const { h, id, emu } = await publishingUnit();
  await run('mosquitto_pub', [
    '-h',
    '127.0.0.1',
    '-p',
    String(broker.port),
    '-t',
    `${ROOT}/outlets/0/set`,
    '-m',
    '1',
  ]);
  // The unit obeyed: an outside change, and the warning naming it.
  await until(h, id, (s) => s.outlets[0]?.state === true);
  expect(emu.device.outlet(0).state).toBe(true);
  await expect
    .poll(() => h.activity().filter((e) => e.source === 'mqtt'), { timeout: 15_000, interval: 20 })
    .toEqual([expect.objectContaining({ controllerName: 'Bench A', result: 'error' })]);
});
