/**
 * Child process for measurement 13: N emulated controllers on 127.0.0.10 upwards (test/e2e/lab-200.ts),
 * so their work does not share the measured process's event loop or count towards its memory. Driven
 * over IPC by m13-lab.ts.
 */
import { startManyControllers, type ManyControllers } from '../e2e/lab-200';
import type { LabReply, LabRequest } from './m13-protocol';

let lab: ManyControllers | null = null;

async function handle(request: LabRequest): Promise<LabReply> {
  switch (request.cmd) {
    case 'start':
      await lab?.close();
      lab = null;
      if (request.count === 0) return { id: request.id, ok: true, urls: [] };
      lab = await startManyControllers({ count: request.count, emulator: { latency: request.latencyMs } });
      return {
        id: request.id,
        ok: true,
        urls: lab.units.map((u) => u.url),
        user: lab.user,
        password: lab.password,
      };
    case 'requests':
      return {
        id: request.id,
        ok: true,
        requests: lab?.units.reduce((n, u) => n + u.emulator.device.stats.requests, 0) ?? 0,
      };
    case 'close':
      await lab?.close();
      lab = null;
      return { id: request.id, ok: true };
  }
}

process.on('message', (message: LabRequest) => {
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

const leave = (): void => void (lab?.close() ?? Promise.resolve()).finally(() => process.exit(0));
process.on('disconnect', leave);
process.on('SIGTERM', leave);
process.on('SIGINT', leave);
process.send?.({ id: 0, ok: true });
