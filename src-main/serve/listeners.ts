/**
 * The listener table: how each `--listen` name starts. One entry per listener; adding one is a line here.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { startWebShell } from '../web/server';
import { startApiListener } from './api';
import type { ListenerContext, ListenerFactory, RunningListener } from './listener';
import { limitedLog } from '../web/log-limit';
import { clientAllowed } from './network';
import { createPdudaemonListener } from './pdudaemon-listener';
import type { ListenerName } from './options';

/** The web window (the web shell) on loopback, over this service's Core. */
const webListener: ListenerFactory = async (context: ListenerContext): Promise<RunningListener> => {
  // The service's Core keeps polling meters whoever looks (metrics want them): the web shell's
  // visibility reports are not passed on.
  const core = { ...context.core, setVisible: () => undefined };
  const shell = await startWebShell({ core, port: context.spec.port, log: context.log });
  return { name: 'web', lines: [`web: ${shell.url}`], close: () => shell.close() };
};

/**
 * pdudaemon's HTTP API and TCP line protocol on one port (16421 by default: its clients assume it).
 * The protocol has no login, so a listener facing the network needs --allow (options.ts), and a client
 * outside the allowed networks is disconnected before a byte is read.
 */
const pdudaemonListener: ListenerFactory = async (context: ListenerContext): Promise<RunningListener> => {
  const pdu = createPdudaemonListener(context.core, {
    log: context.log,
    hostNames: context.hostNames,
    allow: context.allow,
    onAnswered: (door, status) => context.metrics.request(`pdudaemon-${door}`, status),
  });
  const refusals = limitedLog(context.log);
  const server = createServer((socket) => {
    if (!clientAllowed(socket.remoteAddress, context.allow)) {
      context.metrics.error('pdudaemon', 'FORBIDDEN');
      refusals(`pdudaemon: refused a connection from ${socket.remoteAddress ?? '?'}: not in --allow.`);
      socket.destroy();
      return;
    }
    pdu.handleConnection(socket);
  });
  server.listen(context.spec.port, context.spec.host);
  await once(server, 'listening');
  // An accept that fails (out of file descriptors) is told, not thrown: the listener goes on.
  server.on('error', (error) => refusals(`pdudaemon: ${error.message}`));
  const { port } = server.address() as AddressInfo;
  return {
    name: 'pdudaemon',
    lines: [`pdudaemon: ${context.spec.host}:${port} (HTTP /power/control/… and the TCP line protocol)`],
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await pdu.close(graceMs);
      await closed;
      refusals.close();
    },
  };
};

export const LISTENERS: Record<ListenerName, ListenerFactory | null> = {
  web: webListener,
  api: startApiListener,
  pdudaemon: pdudaemonListener,
};
