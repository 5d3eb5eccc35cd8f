/**
 * The Core's own socket (src-main/link/wire.ts), served by the process that holds the Core lock (the
 * service, the desktop app or the web shell): the other Plugboards of the same OS user on the config
 * folder reach its Core through it instead of running their own. A Unix socket with mode 0600 (a named
 * pipe on Windows), made only while this process holds the Core lock (core-lock.ts), so a socket file
 * left by a process that died is replaced safely. It is removed only by its owner: the file this process
 * made (the same device, inode and times), and only while this process still holds the lock — a service
 * that lost its lock never deletes its successor's socket.
 */
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { chmod, lstat, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
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

export interface CoreSocketOptions {
  /** Whether this process still holds the Core lock (default: always; tests without a lock). */
  holdsLock?: () => boolean;
}

export async function listenCoreSocket(
  core: Core,
  socketPath: string,
  log: Logger,
  options: CoreSocketOptions = {},
): Promise<CoreSocket> {
  const posix = process.platform !== 'win32';
  const holdsLock = options.holdsLock ?? (() => true);
  // The server listens under a name of its own and the file is then renamed to `socketPath`: Node
  // (libuv) unlinks the path a server listened on when it closes, whatever file is there by then.
  const listenPath = posix ? `${socketPath}.${randomBytes(4).toString('hex')}` : socketPath;
  if (posix && holdsLock()) await removeLeftovers(socketPath);
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
      server.listen(listenPath, () => {
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
  let made: BigIntStats | null = null;
  if (posix) {
    try {
      await chmod(listenPath, 0o600);
      // Replaces a socket left by a Core that is gone: this process holds the lock, so no live Core owns it.
      await rename(listenPath, socketPath);
      made = await lstat(socketPath, { bigint: true });
    } catch (error) {
      await bridge.close(0);
      await closeGracefully(server, 0);
      throw error;
    }
  }

  return {
    async close(graceMs) {
      await bridge.close(graceMs);
      await closeGracefully(server, graceMs);
      bridge.terminate();
      if (made && holdsLock()) await removeIfSame(socketPath, made);
    },
  };
}

/** Sockets that a Core which died between listening and renaming left (`core.sock.<id>`). */
async function removeLeftovers(socketPath: string): Promise<void> {
  const folder = dirname(socketPath);
  const prefix = `${basename(socketPath)}.`;
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(prefix)))
    await rm(join(folder, name), { force: true }).catch(() => undefined);
}

/**
 * Remove `file` only if it is still the one `made` describes, not a successor's socket by the same name
 * (which may even reuse the freed inode number: its change and birth times differ, to the nanosecond).
 */
async function removeIfSame(file: string, made: BigIntStats): Promise<void> {
  const now = await lstat(file, { bigint: true }).catch(() => null);
  const same =
    now !== null &&
    now.dev === made.dev &&
    now.ino === made.ino &&
    now.ctimeNs === made.ctimeNs &&
    now.birthtimeNs === made.birthtimeNs;
  if (same) await rm(file, { force: true });
}
