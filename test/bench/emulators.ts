/** In-process emulators for the measurements that need a shared clock or direct access to the device. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator/index';
import { DliClient } from '../../src-main/dli/client';
import { onCleanup } from './cleanup';
import { PASSWORD, USER } from './baselines';

/** Start emulators on 127.0.0.1 (ephemeral ports); they are closed by the bench's cleanup. */
export async function startLocal(
  count: number,
  options: EmulatorOptions = {},
): Promise<{ emulators: RunningEmulator[]; close: () => Promise<void> }> {
  const emulators = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startEmulator({ name: `Bench ${i + 1}`, ...options, host: '127.0.0.1', port: 0 }),
    ),
  );
  const close = onCleanup(async () => {
    await Promise.allSettled(emulators.map((e) => e.close()));
  });
  return { emulators, close };
}

/** A Plugboard controller client with the emulator's factory login. */
export function clientFor(url: string, name?: string): DliClient {
  return new DliClient({
    url,
    credentials: { kind: 'digest', user: USER, password: PASSWORD },
    ...(name ? { name } : {}),
    timeoutMs: 60_000,
  });
}
