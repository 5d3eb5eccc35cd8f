/**
 * The pdudaemon listener on its own TCP server: for tests, the benchmark, and `plugboard serve` when it
 * needs nothing more than an address (it may instead mount `handleConnection` on a server of its own).
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { once } from 'node:events';
import {
  createPdudaemonListener,
  type PdudaemonListener,
  type PdudaemonListenerOptions,
} from './pdudaemon-listener';
import type { PduCore } from './pdudaemon-actions';

/** pdudaemon's port: its clients (pduclient, labgrid's default) always use it. */
export const PDUDAEMON_PORT = 16421;

export interface RunningPdudaemon {
  server: Server;
  listener: PdudaemonListener;
  /** The port it listens on (16421 unless told otherwise; 0 picks a free one). */
  port: number;
  /** Stop listening, answer what is in progress (for up to `graceMs` when given), close every connection. */
  close(graceMs?: number): Promise<void>;
}

export async function listenPdudaemon(
  core: PduCore,
  options: PdudaemonListenerOptions & { host?: string; port?: number } = {},
): Promise<RunningPdudaemon> {
  const listener = createPdudaemonListener(core, options);
  const server = createServer((socket) => listener.handleConnection(socket));
  server.listen(options.port ?? PDUDAEMON_PORT, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    listener,
    port: (server.address() as AddressInfo).port,
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await listener.close(graceMs);
      await closed;
    },
  };
}
