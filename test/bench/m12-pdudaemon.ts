/**
 * 12. The pdudaemon protocol (issue 15) through Plugboard's listener (`src-main/serve/pdudaemon-*.ts`)
 * at 20 controllers (in-process emulators, 20 ms latency, shared clock). (a) Throughput: one client loop
 * per controller, each sending `GET /power/control/on|off?hostname=Bench N&port=…` (alternating, outlets
 * in turn) as fast as answers come, for a fixed number of requests; the same over the TCP line protocol.
 * (b) Latency with the controller idle: from the request leaving the client to the write reaching the
 * unit, and to the 200 answer, against the physical floor measured in the same run: one round trip of
 * the same write with a bare client.
 */
import { listenPdudaemon } from '../../src-main/serve/pdudaemon-server';
import { recordArrivals } from './arrivals';
import { onCleanup } from './cleanup';
import { startCore, settled } from './core-harness';
import { isWrite } from './departures';
import { clientFor, startLocal } from './emulators';
import { median, now, percentile, sleep, waitFor } from './numbers';
import { row, type Row } from './results';
import { pduTcp } from '../serve/pdudaemon-client';

const CONTROLLERS = 20;
const LATENCY_MS = 20;
const PER_CONTROLLER = 25;
const LATENCY_SAMPLES = 60;

export async function measurePdudaemon(): Promise<Row[]> {
  const { emulators, close } = await startLocal(CONTROLLERS, { latency: LATENCY_MS, sequenceDelay: 0 });
  const { arrivals, restore } = recordArrivals(emulators);
  try {
    const run = await startCore(
      emulators.map((e) => e.url),
      { pollIntervalMs: 3000 },
    );
    await run.online();
    const pdu = await listenPdudaemon(run.core, { port: 0, log: () => undefined });
    const stop = onCleanup(() => pdu.close());
    const url = (i: number, n: number) =>
      `http://127.0.0.1:${pdu.port}/power/control/${n % 2 === 0 ? 'off' : 'on'}?hostname=Bench%20${i + 1}&port=${(Math.floor(n / 2) % 8) + 1}`;
    const httpGet = async (target: string) => {
      const response = await fetch(target);
      const body = await response.text();
      if (response.status !== 200) throw new Error(`pdudaemon answered ${response.status}: ${body.trim()}`);
    };

    // (a) throughput, HTTP then TCP (controller names have a space: TCP uses aliases).
    for (const [i, id] of run.ids.entries())
      await run.call('controllers/update', { id, alias: `bench-${i + 1}` });
    const throughput = async (send: (i: number, n: number) => Promise<void>) => {
      const t0 = now();
      await Promise.all(
        run.ids.map(async (_, i) => {
          for (let n = 0; n < PER_CONTROLLER; n++) await send(i, n);
        }),
      );
      return (CONTROLLERS * PER_CONTROLLER) / ((now() - t0) / 1000);
    };
    const httpRate = await throughput((i, n) => httpGet(url(i, n)));
    await waitFor(() => settled(run), 'every change to be confirmed', 30_000, 5);
    const tcpRate = await throughput(async (i, n) => {
      const reply = await pduTcp(
        pdu.port,
        `bench-${i + 1} ${(Math.floor(n / 2) % 8) + 1} ${n % 2 === 0 ? 'off' : 'on'}`,
      );
      if (reply !== 'ack\n') throw new Error(`pdudaemon TCP answered ${JSON.stringify(reply)}`);
    });
    await waitFor(() => settled(run), 'every change to be confirmed', 30_000, 5);

    // (b) latency, one controller idle before each request.
    const toUnit: number[] = [];
    const toAnswer: number[] = [];
    for (let n = 0; n < LATENCY_SAMPLES + 4; n++) {
      const i = n % CONTROLLERS;
      const mark = arrivals.length;
      const t0 = now();
      await httpGet(url(i, n));
      const t1 = now();
      const write = arrivals.slice(mark).find((a) => isWrite(a.method) && a.emulator === i);
      if (!write) throw new Error('no write reached the controller');
      if (n >= 4) {
        toUnit.push(write.at - t0);
        toAnswer.push(t1 - t0);
      }
      await waitFor(() => settled(run), 'the change to be confirmed', 10_000, 1);
      await waitFor(() => emulators[i]!.device.stats.inFlight === 0, 'the controller to go idle', 10_000, 1);
      await sleep(2);
    }
    await stop();
    await run.dispose();

    const client = clientFor(emulators[0]!.url);
    await client.refresh();
    const trips: number[] = [];
    for (let n = 0; n < 20; n++) {
      const t0 = now();
      await client.outlets.setState([(n % 8) + 1], n % 2 === 1);
      trips.push(now() - t0);
    }
    await client.close();
    const floor = median(trips);
    return [
      row({
        measurement: 12,
        figure: 'pdudaemon HTTP requests per second, 20 controllers',
        value: httpRate,
        unit: '/s',
        target: '',
        met: null,
        note: `${CONTROLLERS * PER_CONTROLLER} on/off requests, one client loop per controller, ${LATENCY_MS} ms unit latency; TCP line protocol ${tcpRate.toFixed(0)}/s (one connection per request, as pduclient).`,
      }),
      row({
        measurement: 12,
        figure: 'pdudaemon request to 200 answer, idle controller, median',
        value: toAnswer.length ? median(toAnswer) : NaN,
        unit: 'ms',
        target: '',
        met: null,
        baselines: [{ name: 'physical floor: one round trip of the same write (bare client)', value: floor }],
        note: `request to write arriving at the unit: median ${median(toUnit).toFixed(2)} ms, p95 ${percentile(toUnit, 95).toFixed(2)} ms; answer p95 ${percentile(toAnswer, 95).toFixed(1)} ms; ${LATENCY_SAMPLES} requests.`,
      }),
    ];
  } finally {
    restore();
    await close();
  }
}
