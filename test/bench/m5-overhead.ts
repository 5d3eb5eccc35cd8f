/**
 * 5. Action overhead: from a contract call (`dispatch` with the Core's handlers — exactly what the IPC
 * and WebSocket bindings run) to the request arriving at the controller, latency 0, in one process so
 * one monotonic clock serves both ends. Baseline: the bare DliClient call (no Core, no dispatcher).
 */
import { recordArrivals } from './arrivals';
import { startCore, settled } from './core-harness';
import { isWrite } from './departures';
import { clientFor, startLocal } from './emulators';
import { median, now, percentile, sleep, waitFor } from './numbers';
import { row, type Row } from './results';

const ACTIONS = 200;

export async function measureOverhead(): Promise<Row[]> {
  const { emulators, close } = await startLocal(1, { latency: 0, sequenceDelay: 0 });
  const emulator = emulators[0]!;
  const count = emulator.device.outletCount;
  const { arrivals, restore } = recordArrivals(emulators);
  try {
    /** Milliseconds from `act()` being called to the first write request reaching the emulator. */
    const toWire = async (act: () => Promise<unknown>): Promise<number> => {
      const mark = arrivals.length;
      const start = now();
      await act();
      const write = arrivals.slice(mark).find((a) => isWrite(a.method));
      if (!write) throw new Error('no write request reached the controller');
      return write.at - start;
    };

    const run = await startCore([emulator.url], {
      pollIntervalMs: 600_000,
      timing: { slowEveryMs: 3_600_000 },
    });
    await run.online();
    const id = run.ids[0]!;
    const core: number[] = [];
    for (let i = 0; i < ACTIONS + 10; i++) {
      const outlet = (i % count) + 1;
      const on = Math.floor(i / count) % 2 === 0;
      const ms = await toWire(() => run.call('outlets/set', { controllerId: id, outlets: [outlet], on }));
      // Wait for the confirming poll, so every action starts with the controller idle, as a click does.
      await waitFor(() => settled(run), 'the change to be confirmed', 10_000, 1);
      await waitFor(() => emulator.device.stats.inFlight === 0, 'the controller to go idle', 10_000, 1);
      await sleep(2);
      if (i >= 10) core.push(ms);
    }
    await run.dispose();

    const client = clientFor(emulator.url);
    await client.refresh();
    const bare: number[] = [];
    for (let i = 0; i < ACTIONS + 10; i++) {
      const outlet = (i % count) + 1;
      const on = Math.floor(i / count) % 2 === 1;
      const ms = await toWire(() => client.outlets.setState([outlet], on));
      await sleep(2);
      if (i >= 10) bare.push(ms);
    }
    await client.close();

    return [
      row({
        measurement: 5,
        figure: 'action → on the wire, median',
        value: median(core),
        unit: 'ms',
        target: '≤ 5 ms',
        met: median(core) <= 5,
        baselines: [{ name: 'bare DliClient call', value: median(bare) }],
        note: `${ACTIONS} outlets/set calls after 10 warm-up ones, latency 0; timed from the dispatch call to the request's arrival at the emulator.`,
      }),
      row({
        measurement: 5,
        figure: 'action → on the wire, p95',
        value: percentile(core, 95),
        unit: 'ms',
        target: '',
        met: null,
        baselines: [{ name: 'bare DliClient call', value: percentile(bare, 95) }],
      }),
    ];
  } finally {
    restore();
    await close();
  }
}
