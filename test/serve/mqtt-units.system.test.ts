/**
 * The two halves of MQTT together, end to end: the built `plugboard serve --mqtt` and an emulator that
 * publishes its own outlet changes to the same real Mosquitto (test/system/mosquitto.ts, a login each,
 * the access list docs/mqtt.md shows), the controller saved with the emulator's topic root and polled
 * every 30 s. An outside change made at the unit through its own REST API (curl, not Plugboard) reaches
 * a window attached to the service over its api listener (a remote link with an observer's token) and a `mosquitto_sub` on the service's state
 * topic, with no outlet-list read at the unit in between: the unit's message, handed by the bus to the
 * Core, brought it, not the next poll. A message on the unit's own `…/set` is warned about, naming the
 * unit, in the activity log. Every wait is for an event, a message or a line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ControllerState } from '../../src-preload/model';
import { connectRemoteCore } from '../../src-main/link';
import { storedActivity } from '../core/stored-activity';
import { curl } from '../emulator/clients';
import { cleanUpBrokers, publish, startBroker, subscribe } from '../system/mosquitto';
import { cleanUpServe, savedBench, scratchDir, serveBuilt, writeTokens } from './built-serve';

afterEach(async () => {
  await cleanUpBrokers();
  await cleanUpServe();
});

const USERS = { plugboard: 'pb-secret-one', viewer: 'viewer-secret', 'unit-a': 'unit-secret' };
/** The unit's topic root; the access list lets `unit-a` publish under it and the service read it. */
const ROOT = 'lab/units/bench-a';
/** The window's token: an observer, as a person watching the lab. */
const WINDOW_TOKEN = 'window-secret-0123456789abcdef';

/** A GET of the whole outlet list: what a poll reads (a hint reads only the outlets it names). */
const listRead = (path: string): boolean => /\/restapi\/relay\/outlets\/$/.test(path);

it(
  "shows an outside change at a publishing unit in the window and on the service's state topic before the next poll, and warns of a message on the unit's own /set",
  { timeout: 120_000 },
  async () => {
    const broker = await startBroker({ dir: scratchDir('plugboard-mqtt-units-'), users: USERS });
    const bench = await savedBench('bench-a', undefined, {
      emulator: {
        initialStates: Array(8).fill(false),
        mqtt: { broker: `mqtt://unit-a:${USERS['unit-a']}@127.0.0.1:${broker.port}`, topic: ROOT },
      },
      mqttTopic: ROOT,
      settings: { pollIntervalMs: 30_000, unitSafetyPollMs: 30_000 },
    });
    const { emu } = bench;
    await emu.mqtt!.ready;
    const serial = emu.device.serial;
    writeFileSync(path.join(bench.credentials, 'plugboard.mqtt'), `plugboard:${USERS.plugboard}\n`, {
      mode: 0o600,
    });
    writeTokens(bench.credentials, [`desk[observer]:${WINDOW_TOKEN}`]);
    const service = serveBuilt(
      [
        '--listen',
        'api=127.0.0.1:0',
        '--config-dir',
        bench.configDir,
        '--mqtt',
        `mqtt://127.0.0.1:${broker.port}`,
      ],
      { CREDENTIALS_DIRECTORY: bench.credentials },
    );
    const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
    await service.line(/^Ready\.$/);
    // The service follows the unit's root (the broker's log names the subscription).
    await broker.logLine(/plugboard-\S+ \d lab\/units\/bench-a\/#/);
    const state = `plugboard/${serial}/outlet/4/state`;
    const watch = await subscribe(broker, 'viewer', [state]);
    await watch.next((m) => m.payload === 'OFF');

    // The window: the service's events through its remote link, as an attached window receives them.
    const link = await connectRemoteCore(api, { token: WINDOW_TOKEN });
    const states: ControllerState[] = [];
    const wakers = new Set<() => void>();
    link.subscribe((name, payload) => {
      if (name !== 'state/changed') return;
      states.push(payload as ControllerState);
      for (const wake of [...wakers]) wake();
    });
    const inWindow = (check: (s: ControllerState) => boolean): Promise<void> =>
      new Promise((resolve) => {
        const wake = () => {
          if (!states.some(check)) return;
          wakers.delete(wake);
          resolve();
        };
        wakers.add(wake);
        wake();
      });
    const snapshot = await link.handlersAs({ door: 'window', who: 'desk' })['app/snapshot']({});
    expect(snapshot.states.find((s) => s.id === bench.controller.id)?.status).toBe('online');

    // The outside change, through the unit's own REST API. The poll that connected read the list just
    // before Ready; the next one is 30 s after it.
    const shown = inWindow((s) => s.id === bench.controller.id && s.outlets[3]?.physicalState === true);
    const from = watch.messages.length;
    const t0 = Date.now();
    const put = await curl(`${emu.url}/restapi/relay/outlets/3/state/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=true',
    });
    expect(put.status).toBe(204);
    await shown;
    await watch.next((m) => m.payload === 'ON', from);
    const reads = emu.device.stats.log.filter((e) => e.time >= t0 && e.method === 'GET');
    // Read because the unit said so, not polled: no outlet list was read since the change.
    expect(reads.filter((e) => listRead(e.path))).toEqual([]);
    expect(reads.some((e) => /\/restapi\/relay\/outlets\//.test(e.path))).toBe(true);
    expect(emu.mqtt!.published).toBeGreaterThan(0);

    // Someone switches the unit through the broker: its own /set, which only its "Allow write" obeys.
    await publish(broker, 'unit-a', `${ROOT}/outlets/0/set`, '1');
    await service.errLine(/Someone published to "lab\/units\/bench-a\/outlets\/0\/set"/);
    expect(emu.device.outlet(0).physicalState).toBe(false);
    await link.close();
    service.child.kill('SIGTERM');
    expect((await service.exit).code).toBe(0);
    expect(storedActivity(bench.configDir).filter((e) => e.source === 'mqtt')).toEqual([
      expect.objectContaining({
        controllerName: 'bench-a',
        result: 'error',
        error: expect.objectContaining({ message: expect.stringContaining('bench-a obeys anyone there') }),
      }),
    ]);
  },
);
