/**
 * 7. Memory: the Core polling 50 controllers once a second with meter history, for 10 minutes after a
 * one-minute warm-up (`--quick`: 20 s + 60 s). The Core runs alone in a child process (with
 * --expose-gc, collected before each sample); the controllers run in the farm, another child.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { onCleanup, stopChild } from './cleanup';
import { Farm } from './farm-client';
import { sum } from './numbers';
import type { MemoryJob, MemoryMessage, MemorySample } from './memory-protocol';
import { row, type Row } from './results';

const CONTROLLERS = 50;
const LATENCY_MS = 50;
const TARGET_MB = 20;

export async function measureMemory(quick: boolean): Promise<Row[]> {
  const job: Omit<MemoryJob, 'urls'> = quick
    ? { pollIntervalMs: 1000, warmupMs: 20_000, durationMs: 60_000, sampleEveryMs: 10_000 }
    : { pollIntervalMs: 1000, warmupMs: 60_000, durationMs: 600_000, sampleEveryMs: 10_000 };
  const farm = await Farm.start();
  const child = fork(resolve(import.meta.dirname, 'memory-child.ts'), [], {
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stopMemoryChild = onCleanup(() => stopChild(child));
  try {
    const urls = await farm.add(CONTROLLERS, { latency: LATENCY_MS });
    const result = await new Promise<Extract<MemoryMessage, { kind: 'done' }>>((done, fail) => {
      child.on('message', (message: MemoryMessage) => {
        if (message.kind === 'ready') {
          void farm.reset().then(() => child.send({ ...job, urls } satisfies MemoryJob));
        } else if (message.kind === 'sample') {
          const { seconds, phase, rss, heapUsed } = message.sample;
          console.log(
            `    ${String(seconds).padStart(4)} s  ${phase.padEnd(7)}  RSS ${mb(rss)} MB  heap ${mb(heapUsed)} MB`,
          );
        } else if (message.kind === 'done') done(message);
        else fail(new Error(`memory run: ${message.message}`));
      });
      child.once('exit', (code) =>
        fail(new Error(`The memory run's child exited (${code}) before reporting.`)),
      );
    });
    const farmStats = await farm.stats();

    // RSS moves by a few MB between samples (allocator, JIT): compare medians of three samples.
    const warmSamples = result.samples.filter((s) => s.phase === 'warm-up').slice(-3);
    const lastSamples = result.samples.slice(-3);
    const middle = (list: MemorySample[]): MemorySample =>
      [...list].sort((a, b) => a.rss - b.rss)[Math.floor(list.length / 2)]!;
    const warm = middle(warmSamples);
    const last = middle(lastSamples);
    const peak = Math.max(...result.samples.filter((s) => s.phase === 'run').map((s) => s.rss));
    const growth = (last.rss - warm.rss) / 2 ** 20;
    const seconds = (job.warmupMs + job.durationMs) / 1000;
    const requests = sum(farmStats.map((s) => s.requests));
    const unauthorized = sum(farmStats.map((s) => s.unauthorized));
    const perControllerSecond = requests / CONTROLLERS / seconds;
    const bytesPerSample = 8 + 4 * result.metersPerController;
    const dayMb = (CONTROLLERS * 86_400 * bytesPerSample) / 2 ** 20;
    return [
      row({
        measurement: 7,
        figure: `RSS growth after warm-up (${job.durationMs / 60_000} min)`,
        value: growth,
        unit: 'MB',
        target: `≤ ${TARGET_MB} MB`,
        met: growth <= TARGET_MB,
        note: `${CONTROLLERS} controllers, ${job.pollIntervalMs} ms polls, ${LATENCY_MS} ms latency; RSS ${mb(warm.rss)} MB after warm-up → ${mb(last.rss)} MB (medians of 3 samples) (peak ${mb(peak)} MB); heap ${mb(warm.heapUsed)} → ${mb(last.heapUsed)} MB; gc ${result.gcExposed ? 'before each sample' : 'NOT exposed'}${quick ? '; --quick run, indicative only' : ''}.`,
      }),
      row({
        measurement: 7,
        figure: 'RSS after warm-up',
        value: warm.rss / 2 ** 20,
        unit: 'MB',
        target: '',
        met: null,
      }),
      row({
        measurement: 7,
        figure: 'RSS at the end',
        value: last.rss / 2 ** 20,
        unit: 'MB',
        target: '',
        met: null,
      }),
      row({
        measurement: 7,
        figure: 'heap used at the end',
        value: last.heapUsed / 2 ** 20,
        unit: 'MB',
        target: '',
        met: null,
      }),
      row({
        measurement: 7,
        figure: 'requests per controller per second',
        value: perControllerSecond,
        unit: 'req/s',
        target: '',
        met: null,
        note: `steady polling incl. the administrator's scripts/users/SSH re-read every 30 s; ${unauthorized} of ${requests} answers were 401 (first challenges, and nonces the emulators expire after 300 s); max in flight per controller ${Math.max(...farmStats.map((s) => s.maxInFlight))}; meter history held ${result.historyPoints} points per meter in all (${bytesPerSample} bytes per sample: 24 h at 1 s polls would hold ≈ ${dayMb.toFixed(0)} MB for ${CONTROLLERS} controllers).`,
      }),
    ];
  } finally {
    await stopMemoryChild();
    await farm.stop();
  }
}

function mb(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}
