/** Shared set-up for client tests against the emulator: start, connect, clean up, catch errors. */
import { afterEach } from 'vitest';
import { DliClient } from '../../src-main/dli/client';
import { PlugboardError } from '../../src-main/shared/errors';
import { type Credentials, type DliClientOptions } from '../../src-main/dli/types';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';

const running: RunningEmulator[] = [];
const clients: DliClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** Fast relays so tests do not wait for real-world delays. */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const started = await startEmulator({ cycleDelay: 0.2, sequenceDelay: 0, rebootSeconds: 0.3, ...options });
  running.push(started);
  return started;
}

export const ADMIN: Credentials = { kind: 'digest', user: 'admin', password: '1234' };

export function client(url: string, options: Partial<DliClientOptions> = {}): DliClient {
  const created = new DliClient({ url, credentials: ADMIN, ...options });
  clients.push(created);
  return created;
}

/** The PlugboardError a call fails with (fails the test if it succeeds or throws something else). */
export async function failure(promise: Promise<unknown>): Promise<PlugboardError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlugboardError) return error;
    throw new Error(`expected a PlugboardError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected the call to fail');
}

/** Every outlet off (persistent and transient), as from the keypad; the emulator starts with some on. */
export function allOff(unit: RunningEmulator): RunningEmulator {
  for (let i = 0; i < unit.device.outletCount; i++) unit.device.setOutlet(i, { state: false });
  return unit;
}

/** Outlet access for a user: these 1-based outlets of `count`. */
export function access(outlets: number[], count = 8): boolean[] {
  return Array.from({ length: count }, (_, i) => outlets.includes(i + 1));
}
