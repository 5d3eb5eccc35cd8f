/**
 * 3. Fan-out: refresh 1, 10 and 50 controllers, each answering after 100 ms, through the Core
 * (`controllers/refresh` for each, all at once), with the controllers in a separate process. Baseline:
 * the same refreshes one controller after another, as most scripts do.
 */
import { clientFor } from './emulators';
import { startCore } from './core-harness';
import { Farm } from './farm-client';
import { median, now, sleep, sum, waitFor } from './numbers';
import { row, type Row } from './results';

export const FANOUT_LATENCY_MS = 100;
const SIZES = [1, 10, 50] as const;
const REPEATS = 5;

export async function measureFanout(): Promise<Row[]> {
  const farm = await Farm.start();
  try {
    const urls = await farm.add(50, { latency: FANOUT_LATENCY_MS });
    // Background polls out of the way (10 min interval; scripts/users only at connect), so each
    // `controllers/refresh` is exactly one full refresh: outlets and meters.
    const run = await startCore(urls, { pollIntervalMs: 600_000, timing: { slowEveryMs: 3_600_000 } });
    await run.online(120_000);
    await quiet(farm);
    const connectMaxInFlight = Math.max(...(await farm.stats()).map((s) => s.maxInFlight));
    await farm.reset();

    const wall = new Map<number, number>();
    const requests = new Map<number, number>();
    for (const size of SIZES) {
      const ids = run.ids.slice(0, size);
      const times: number[] = [];
      const before = sum((await farm.stats()).map((s) => s.requests));
      for (let r = 0; r < REPEATS; r++) {
        const start = now();
        await Promise.all(ids.map((id) => run.call('controllers/refresh', { id })));
        times.push(now() - start);
      }
      const after = sum((await farm.stats()).map((s) => s.requests));
      wall.set(size, median(times));
      requests.set(size, (after - before) / REPEATS / size);
    }
    const maxInFlight = Math.max(connectMaxInFlight, ...(await farm.stats()).map((s) => s.maxInFlight));
    await run.dispose();

    // Baseline: the same full refresh (the client's), one controller after another.
    const sequential = new Map<number, number>();
    const clients = urls.map((url) => clientFor(url));
    await Promise.all(clients.map((c) => c.refresh()));
    for (const size of SIZES) {
      const times: number[] = [];
      for (let r = 0; r < (size === 50 ? 1 : 3); r++) {
        const start = now();
        for (const client of clients.slice(0, size)) await client.refresh();
        times.push(now() - start);
      }
      sequential.set(size, median(times));
    }
    await Promise.all(clients.map((c) => c.close()));

    const w1 = wall.get(1)!;
    const w50 = wall.get(50)!;
    return [
      ...SIZES.map((size) =>
        row({
          measurement: 3,
          figure: `refresh ${size} controller${size > 1 ? 's' : ''} (${FANOUT_LATENCY_MS} ms latency)`,
          value: wall.get(size)!,
          unit: 'ms',
          target: '',
          met: null,
          baselines: [{ name: 'sequential, one after another', value: sequential.get(size)! }],
          note:
            size === 50
              ? `median of ${REPEATS}; ${requests.get(50)!.toFixed(2)} requests per controller per refresh; controllers in a child process.`
              : undefined,
        }),
      ),
      row({
        measurement: 3,
        figure: 'wall(50) ÷ wall(1)',
        value: w50 / w1,
        unit: '×',
        target: '≤ 1.5',
        met: w50 / w1 <= 1.5,
        baselines: [{ name: 'sequential', value: sequential.get(50)! / sequential.get(1)! }],
      }),
      row({
        measurement: 3,
        figure: 'max requests in flight per controller',
        value: maxInFlight,
        unit: '',
        target: '≤ 1',
        met: maxInFlight <= 1,
        note: 'the highest maxInFlight any of the 50 emulators saw during the Core runs (connect included).',
      }),
    ];
  } finally {
    await farm.stop();
  }
}

/** Wait until no controller has a request in flight, then a little longer (connect tails, slow reads). */
async function quiet(farm: Farm): Promise<void> {
  await waitFor(
    async () => (await farm.stats()).every((s) => s.inFlight === 0),
    'the farm to go quiet',
    60_000,
    50,
  );
  await sleep(500);
  await waitFor(
    async () => (await farm.stats()).every((s) => s.inFlight === 0),
    'the farm to go quiet',
    60_000,
    50,
  );
}
