/**
 * Child process for the memory run: only Plugboard's Core lives here (the controllers are in the farm),
 * so its RSS is the Core's. Started with --expose-gc; collects garbage before every sample so the
 * figures show what is kept, not what is waiting to be collected.
 */
import { startCore } from './core-harness';
import { sleep } from './numbers';
import type { MemoryJob, MemoryMessage, MemorySample } from './memory-protocol';

const gc = (globalThis as { gc?: () => void }).gc;

function sample(startedAt: number, phase: MemorySample['phase']): MemorySample {
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return {
    seconds: Math.round((Date.now() - startedAt) / 1000),
    phase,
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
  };
}

const send = (message: MemoryMessage): void => void process.send?.(message);

async function run(job: MemoryJob): Promise<void> {
  const core = await startCore(job.urls, { pollIntervalMs: job.pollIntervalMs });
  await core.online(120_000);
  let stateEvents = 0;
  core.core.subscribe((name) => {
    if (name === 'state/changed') stateEvents++;
  });
  const startedAt = Date.now();
  const samples: MemorySample[] = [sample(startedAt, 'warm-up')];
  send({ kind: 'sample', sample: samples[0]! });
  const end = startedAt + job.warmupMs + job.durationMs;
  while (Date.now() < end) {
    await sleep(Math.min(job.sampleEveryMs, end - Date.now()));
    const phase = Date.now() - startedAt <= job.warmupMs + 500 ? 'warm-up' : 'run';
    const next = sample(startedAt, phase);
    samples.push(next);
    send({ kind: 'sample', sample: next });
  }
  // History kept by the Core: points of one meter per controller, through the contract.
  let historyPoints = 0;
  let meters = 0;
  for (const id of core.ids) {
    const state = core.states.get(id);
    const key = state?.meters?.[0]?.key;
    meters = Math.max(meters, state?.meters?.length ?? 0);
    if (!key) continue;
    const history = await core.call('meters/history', { controllerId: id, key });
    historyPoints += history.t.length;
  }
  await core.dispose();
  send({ kind: 'done', samples, stateEvents, historyPoints, metersPerController: meters, gcExposed: !!gc });
}

process.once('message', (job: MemoryJob) => {
  run(job).then(
    () => process.exit(0),
    (error: unknown) => {
      send({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
send({ kind: 'ready' });
