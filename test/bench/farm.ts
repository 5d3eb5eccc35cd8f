/**
 * Child process: a farm of emulated controllers on 127.0.0.1, so their work does not share the
 * measured process's event loop or count towards its memory. Driven over IPC by farm-client.ts.
 */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator/index';
import type { FarmReply, FarmRequest, FarmStats } from './farm-protocol';

const emulators: RunningEmulator[] = [];

async function closeAll(): Promise<void> {
  const all = emulators.splice(0);
  await Promise.allSettled(all.map((e) => e.close()));
}

function stats(): FarmStats[] {
  return emulators.map(({ device }) => ({
    requests: device.stats.requests,
    unauthorized: device.stats.unauthorized,
    maxInFlight: device.stats.maxInFlight,
    inFlight: device.stats.inFlight,
  }));
}

async function handle(request: FarmRequest): Promise<FarmReply> {
  switch (request.cmd) {
    case 'start': {
      const options: EmulatorOptions = { ...request.options, host: '127.0.0.1', port: 0 };
      const started = await Promise.all(
        Array.from({ length: request.count }, (_, i) =>
          startEmulator({ ...options, name: `Bench ${emulators.length + i + 1}` }),
        ),
      );
      emulators.push(...started);
      return { id: request.id, ok: true, urls: started.map((e) => e.url) };
    }
    case 'stats':
      return { id: request.id, ok: true, stats: stats() };
    case 'reset':
      for (const { device } of emulators) device.stats.reset();
      return { id: request.id, ok: true };
    case 'latency':
      for (const { device } of emulators) device.latency = request.ms;
      return { id: request.id, ok: true };
    case 'close':
      await closeAll();
      return { id: request.id, ok: true };
  }
}

process.on('message', (message: FarmRequest) => {
  handle(message).then(
    (reply) => process.send?.(reply),
    (error: unknown) =>
      process.send?.({
        id: message.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});

// The parent went away (crash, Ctrl-C): stop serving and leave.
const leave = (): void => void closeAll().finally(() => process.exit(0));
process.on('disconnect', leave);
process.on('SIGTERM', leave);
process.on('SIGINT', leave);
process.send?.({ id: 0, ok: true });
