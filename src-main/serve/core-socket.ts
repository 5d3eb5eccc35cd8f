/**
 * The Core's own socket (src-main/link/wire.ts): the desktop app and the CLI of the same OS user reach
 * this service's Core through it instead of running their own. A Unix socket with mode 0600 (a named
 * pipe on Windows), made only while this process holds the Core lock (core-lock.ts), so a socket file
 * left by a process that died is replaced safely.
 */
import { chmod, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import * as v from 'valibot';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { dispatch } from '../core/dispatch';
import { osUserName, type Core } from '../core/index';
import { LINK_PATH, LINK_PROTOCOL, linkCall, MAX_LINK_MESSAGE } from '../link/wire';
import type { Logger } from '../shared/logging';
import { closeGracefully } from './listener';

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
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_LINK_MESSAGE,
    handleProtocols: (offered) => (offered.has(LINK_PROTOCOL) ? LINK_PROTOCOL : false),
  });
  const inFlight = new Set<Promise<void>>();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const path = (request.url ?? '').split('?')[0];
    const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    if (path !== LINK_PATH || !protocols.includes(LINK_PROTOCOL)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
  });
  const user = osUserName();
  sockets.on('connection', (ws: WebSocket) => {
    ws.on('error', () => undefined);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const work = answer(ws, core, data, isBinary, user, log);
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    });
  });
  const stopEvents = core.subscribe((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload });
    for (const ws of sockets.clients) if (ws.readyState === ws.OPEN) ws.send(frame);
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
  } finally {
    if (posix) process.umask(umask);
  }
  if (posix) await chmod(socketPath, 0o600);

  return {
    async close(graceMs) {
      stopEvents();
      const bound = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), bound]);
      for (const ws of sockets.clients) ws.close(1001, 'The Plugboard service is stopping.');
      await closeGracefully(server, graceMs);
      for (const ws of sockets.clients) ws.terminate();
      if (posix) await rm(socketPath, { force: true });
    },
  };
}

async function answer(
  ws: WebSocket,
  core: Core,
  data: RawData,
  isBinary: boolean,
  user: string,
  log: Logger,
): Promise<void> {
  let parsed: v.SafeParseResult<typeof linkCall> | null;
  try {
    parsed = isBinary ? null : v.safeParse(linkCall, JSON.parse(data.toString()));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    ws.close(
      1008,
      'Expected a call: {"type":"call","id":1,"name":"app/info","input":{},"actor":{"door":"cli","who":"me"}}',
    );
    return;
  }
  const call = parsed.output;
  const result = await dispatch(
    core.handlersAs(call.actor ?? { door: 'cli', who: user }),
    call.name,
    call.input ?? {},
    log,
  );
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'result', id: call.id, result }));
}
