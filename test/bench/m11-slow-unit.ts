/**
 * 11. A slow unit: the emulator's real-unit profile (src-main/emulator/README.md) over HTTPS, with its
 * 5 s answer to the full outlet list (`GET relay/outlets/`, which every poll reads; writes answer at
 * once) and `Connection: close` on every answer, polled by the Core at its default 3 s. For 10 minutes
 * (1 with --quick) the Core switches outlet 1 every 15 s while it polls: (a) time from the switch call to
 * the Core's state showing it confirmed (physical state as asked, no pending change), against the
 * physical floor measured in the same run with a bare client: one outlet list read plus one round trip
 * (a write of that outlet's state); (b) every false TIMEOUT or offline state: a status other than
 * online, a switch answered unconfirmed or failed, or an activity entry with an error. The unit is never
 * slow beyond its 5 s, so each is false.
 */
import type { ActivityEntry, ControllerState, OutletActionResult } from '../../src-preload/contract';
import { DliClient } from '../../src-main/dli/client';
import { PASSWORD, USER } from './baselines';
import { startCore } from './core-harness';
import { startLocal } from './emulators';
import { median, now, sleep } from './numbers';
import { row, type Row } from './results';

const SWITCH_EVERY_MS = 15_000;
const FLOOR_SAMPLES = 3;

/** A full outlet list read plus a write round trip, bare client, same HTTPS (median of a few). */
async function physicalFloor(url: string, fingerprint: string): Promise<{ read: number; trip: number }> {
  const client = new DliClient({
    url,
    credentials: { kind: 'digest', user: USER, password: PASSWORD },
    fingerprint,
    timeoutMs: 60_000,
  });
  const reads: number[] = [];
  const trips: number[] = [];
  try {
    await client.outlets.list(); // the digest challenge and the first (full) handshake, not timed
    for (let i = 0; i < FLOOR_SAMPLES; i++) {
      let t0 = now();
      await client.outlets.list();
      reads.push(now() - t0);
      t0 = now();
      await client.outlets.setState([7], i % 2 === 0);
      trips.push(now() - t0);
    }
  } finally {
    await client.close();
  }
  return { read: median(reads), trip: median(trips) };
}

export async function measureSlowUnit(quick: boolean): Promise<Row[]> {
  const durationMs = (quick ? 1 : 10) * 60_000;
  const { emulators, close } = await startLocal(1, { realUnit: true, tls: true });
  const emu = emulators[0]!;
  const fingerprint = emu.device.certificate!.fingerprint256;
  try {
    const floor = await physicalFloor(emu.url, fingerprint);
    const run = await startCore([emu.url], { pollIntervalMs: 3000, fingerprints: [fingerprint] });
    const id = run.ids[0]!;
    const falseStates: string[] = [];
    const unsubscribe = run.core.subscribe((name, payload) => {
      if (name === 'state/changed') {
        const state = payload as ControllerState;
        if (state.status !== 'online' && state.status !== 'connecting')
          falseStates.push(`status ${state.status}`);
      } else if (name === 'activity/added') {
        const entry = payload as ActivityEntry;
        if (entry.error) falseStates.push(`activity "${entry.action}": ${entry.error.code}`);
      }
    });
    const confirmed: number[] = [];
    try {
      await run.online(60_000);
      const started = now();
      let on = !run.states.get(id)!.outlets[0]!.physicalState;
      while (now() - started < durationMs) {
        const t0 = now();
        const result: OutletActionResult = await run.call('outlets/set', {
          controllerId: id,
          outlets: [1],
          on,
        });
        if (result.unconfirmed?.length) falseStates.push('switch unconfirmed');
        for (const failure of result.failed) falseStates.push(`switch failed: ${JSON.stringify(failure)}`);
        const target = on;
        const t1 = await run.when(
          (states) => {
            const outlet = states.get(id)?.outlets[0];
            return outlet?.physicalState === target && outlet.pending === null;
          },
          `outlet 1 confirmed ${target ? 'on' : 'off'}`,
          60_000,
        );
        confirmed.push(t1 - t0);
        on = !on;
        await sleep(Math.max(0, SWITCH_EVERY_MS - (now() - t0)));
      }
    } finally {
      unsubscribe();
      await run.dispose();
    }
    const floorMs = floor.read + floor.trip;
    const minutes = durationMs / 60_000;
    return [
      row({
        measurement: 11,
        figure: 'slow unit: switch to confirmed, median',
        value: median(confirmed),
        unit: 'ms',
        target: '',
        met: null,
        baselines: [
          {
            name: 'physical floor: one outlet list read + one write round trip (bare client)',
            value: floorMs,
          },
        ],
        note: `${confirmed.length} switches over HTTPS with a 5 s answer to GET relay/outlets/ (writes at once) and Connection: close, polled every 3 s; worst ${Math.round(Math.max(...confirmed))} ms; floor = list read ${Math.round(floor.read)} ms + write ${Math.round(floor.trip)} ms.`,
      }),
      row({
        measurement: 11,
        figure: `slow unit: false TIMEOUT or offline states in ${minutes} min`,
        value: falseStates.length,
        unit: '',
        target: '0',
        met: falseStates.length === 0,
        note: falseStates.length
          ? `first: ${falseStates.slice(0, 3).join('; ')}`
          : `${minutes} min of polling and ${confirmed.length} switches, no status but online, no unconfirmed or failed switch.`,
      }),
    ];
  } finally {
    await close();
  }
}
