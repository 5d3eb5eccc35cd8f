/** Two emulated racks and a Core (optionally on a fake clock, with a config folder) for the sequence tests. */
import { vi, expect } from 'vitest';
import type { ControllerSummary, SequenceRun, SequenceStep } from '../../src-preload/contract';
import type { FakeClock } from './fake-clock';
import { addController, emulator, newCore, type CoreHarness } from './harness';

export const LOADED = { timeout: 15_000, interval: 10 };
export type Emu = Awaited<ReturnType<typeof emulator>>;

export async function lab(
  options: {
    clock?: FakeClock;
    dataDir?: string;
    user?: string;
    sequenceDelay?: number;
    latency?: number;
  } = {},
) {
  const off = Array<boolean>(8).fill(false);
  const a = await emulator({
    initialStates: off,
    ...(options.sequenceDelay ? { sequenceDelay: options.sequenceDelay } : {}),
    ...(options.latency ? { latency: options.latency } : {}),
  });
  const b = await emulator({ initialStates: off });
  const h = newCore({
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    user: options.user ?? 'alice',
  });
  if (!options.clock) await h.ok('settings/set', { pollIntervalMs: 500 });
  const ca = await addController(h, a, { name: 'Rack A' });
  const cb = await addController(h, b, { name: 'Rack B' });
  return { a, b, h, ca, cb };
}

export function steps(
  ca: ControllerSummary,
  cb: ControllerSummary,
  waits: SequenceStep['wait'][],
): SequenceStep[] {
  return [
    { controllerId: ca.id, outlets: [1], wait: waits[0]! },
    { controllerId: cb.id, outlets: [2], wait: waits[1]! },
    { controllerId: ca.id, outlets: [3, 4], wait: waits[2]! },
  ];
}

export const delay = (seconds: number): SequenceStep['wait'] => ({ kind: 'delay', seconds });

/** The latest pushed state of a run. */
export function latest(h: CoreHarness, runId: string): SequenceRun | undefined {
  return h.all('sequence/progress').findLast((r) => r.runId === runId);
}

export async function ended(h: CoreHarness, runId: string): Promise<SequenceRun> {
  return vi.waitFor(() => {
    const run = latest(h, runId);
    if (!run || run.status === 'running') throw new Error('still running');
    return run;
  }, LOADED);
}

/** Wait (real time) until a wait of exactly `ms` is planned on the fake clock. */
export async function planned(clock: FakeClock, ms: number) {
  await vi.waitFor(() => expect(clock.timersOf(ms)).toBeGreaterThan(0), LOADED);
}

export const states = (emu: Emu, outlets: number[]) => outlets.map((n) => emu.device.outlet(n - 1).state);
