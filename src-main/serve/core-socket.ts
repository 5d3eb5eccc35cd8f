/**
 * The Core's own socket (src-main/link/wire.ts): the desktop app and the CLI of the same OS user reach
 * this service's Core through it instead of running their own. A Unix socket with mode 0600 (a named
 * pipe on Windows), made only while this process holds the Core lock (core-lock.ts), so a socket file
 * left by a process that died is replaced safely.
 */
import { chmod, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { osUserName, type Core } from '../core/index';
import { LINK_PATH } from '../link/wire';
import type { Logger } from '../shared/logging';
import { closeGracefully } from './listener';
import { createLinkBridge, offersLinkProtocol, refuseUpgrade } from './link-bridge';

export interface CoreSocket {
  /** Close every link and the socket; calls under way get `graceMs` to answer. */
  close(graceMs: number): Promise<void>;
}

export async function listenCoreSocket(core: Core, socketPath: string, log: Logger): Promise<CoreSocket> {
  const posix = process.platform !== 'win32';
  if (posix) await rm(socketPath, { force: true });
  const server = createServer((_request, response) => {
    response.writeHead(426, { 'Content-Type': 'text/plain' }).end('The Core socket speaks WebSocket only.\n');
  });
  const bridge = createLinkBridge(core, log);
  const user = osUserName();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const path = (request.url ?? '').split('?')[0];
    if (path !== LINK_PATH || !offersLinkProtocol(request)) {
      refuseUpgrade(socket, 404, 'Not Found');
      return;
    }
    // The owner-only socket: the caller is this OS user, and may say which door it acts through. It owns
    // the config folder, so it is an administrator, as in its own window.
    bridge.accept(request, socket, head, (call) => ({
      ...(call.actor ?? { door: 'cli', who: user }),
      role: 'admin',
    }));
  });

  // Owner only from the first moment: the socket is created under a umask that leaves no group or
  // other bits, then set to 0600 explicitly.
  const umask = posix ? process.umask(0o177) : 0;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await bridge.close(0); // stops forwarding the Core's events to a socket that never listened
    throw error;
  } finally {
    if (posix) process.umask(umask);
  }
  if (posix) await chmod(socketPath, 0o600);

  return {
    async close(graceMs) {
      await bridge.close(graceMs);
      await closeGracefully(server, graceMs);
      bridge.terminate();
      if (posix) await rm(socketPath, { force: true });
    },
  };
}
