/**
 * 1. Requests per full refresh of one controller (all outlets with every state, all meters), steady
 * state, counted by the emulator; against a naive per-field client and vendor-style curl.
 */
import { METER_KEYS } from '../../src-main/emulator/index';
import { curlRefresh, NaiveClient, OUTLET_FIELDS } from './baselines';
import { clientFor, startLocal } from './emulators';
import { now } from './numbers';
import { row, type Row } from './results';

/** A controller on a busy lab network: every answer takes this long. */
export const REFRESH_LATENCY_MS = 50;

interface Run {
  requests: number;
  unauthorized: number;
  wallMs: number;
}

export async function measureRefresh(): Promise<Row[]> {
  const { emulators, close } = await startLocal(1, { latency: REFRESH_LATENCY_MS });
  const emulator = emulators[0]!;
  const stats = emulator.device.stats;
  const outletCount = emulator.device.outletCount;
  try {
    /** Warm up once (connection, first challenge), then count `times` refreshes. */
    const measure = async (times: number, refresh: () => Promise<void>): Promise<Run> => {
      await refresh();
      stats.reset();
      const start = now();
      for (let i = 0; i < times; i++) await refresh();
      const wallMs = (now() - start) / times;
      return { requests: stats.requests / times, unauthorized: stats.unauthorized / times, wallMs };
    };

    const client = clientFor(emulator.url);
    const plugboard = await measure(20, async () => {
      const { outlets, meters } = await client.refresh();
      if (outlets.length !== outletCount || !meters?.length) throw new Error('incomplete refresh');
    });
    await client.close();

    const naiveClient = new NaiveClient(emulator.url);
    const naive = await measure(3, () => naiveClient.refresh(outletCount, METER_KEYS));
    const curl = await measure(5, () => curlRefresh(emulator.url));

    const baselines = (pick: (run: Run) => number) => [
      { name: 'naive, one request per field', value: pick(naive) },
      { name: 'curl --digest, 2 commands', value: pick(curl) },
    ];
    return [
      row({
        measurement: 1,
        figure: 'requests per full refresh',
        value: plugboard.requests,
        unit: 'req',
        target: '≤ 2, no 401',
        met: plugboard.requests <= 2 && plugboard.unauthorized === 0,
        baselines: baselines((r) => r.requests),
        note: `${outletCount} outlets × ${OUTLET_FIELDS.length} fields + ${METER_KEYS.length} meters; steady state after one warm-up refresh; counted by the emulator.`,
      }),
      row({
        measurement: 1,
        figure: '401 answers per refresh',
        value: plugboard.unauthorized,
        unit: '',
        target: '0',
        met: plugboard.unauthorized === 0,
        baselines: baselines((r) => r.unauthorized),
      }),
      row({
        measurement: 1,
        figure: `refresh wall time (${REFRESH_LATENCY_MS} ms latency)`,
        value: plugboard.wallMs,
        unit: 'ms',
        target: '',
        met: null,
        baselines: baselines((r) => r.wallMs),
      }),
    ];
  } finally {
    await close();
  }
}
