/**
 * Measurement 18's unit answers one request at a time, as the issue's real unit does: a TCP front on
 * 127.0.0.1 that lets one connection through to the emulator at a time and keeps the others waiting
 * (accepted, as a unit's listen backlog holds them) until the one before has closed. The emulator's
 * real-unit profile closes every connection after its answer (`Connection: close`), so one connection
 * is one request, and a 2 s outlet list holds every other client for those 2 s.
 */
import { createServer, connect, type Socket } from 'node:net';
import { onCleanup } from './cleanup';

export interface OneAtATime {
  /** http://127.0.0.1:PORT, the address clients use instead of the emulator's own. */
  url: string;
  /** The most connections that were waiting at once. */
  maxWaiting(): number;
  close(): Promise<void>;
}

export async function oneAtATime(upstreamPort: number): Promise<OneAtATime> {
  const waiting: Socket[] = [];
  const sockets = new Set<Socket>();
  let busy = false;
  let mostWaiting = 0;

  const next = (): void => {
    if (busy) return;
    const client = waiting.shift();
    if (!client) return;
    if (client.destroyed) {
      next();
      return;
    }
    busy = true;
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(upstream);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
      busy = false;
      next();
    };
    upstream.on('error', finish);
    upstream.on('close', finish);
    client.on('close', finish);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.once('close', () => {
      sockets.delete(client);
      const at = waiting.indexOf(client);
      if (at >= 0) waiting.splice(at, 1);
    });
    waiting.push(client);
    mostWaiting = Math.max(mostWaiting, waiting.length);
    next();
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
  const port = (server.address() as { port: number }).port;
  const close = onCleanup(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((closed) => server.close(() => closed()));
  });
  return { url: `http://127.0.0.1:${port}`, maxWaiting: () => mostWaiting, close };
}
