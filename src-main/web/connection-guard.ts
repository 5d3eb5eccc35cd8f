/**
 * Deadlines and caps for a listener's connections, whatever its protocol (the web window, the JSON API,
 * pdudaemon's HTTP and TCP):
 *
 * - a deadline from connect (or from the end of the previous answer, on a kept-alive connection) to a
 *   complete request, which no activity extends: a client trickling a header line every few seconds
 *   is closed at the same moment as one that sends nothing;
 * - a cap on the connections open at once from one address, and on all of them. When a cap is reached,
 *   the connection that has been waiting longest without a complete request is closed to make room
 *   (the oldest idle one), so a flood of idle connections cannot lock out a client that sends its
 *   request; only when every connection is serving a request is the new one refused;
 * - a connection whose answer has been written is destroyed, never left half-closed;
 * - at shutdown, idle connections go at once and `closeAll()` destroys whatever is left.
 *
 * Node's own HTTP timers do not cover this: they run only on a server that listens itself (not on the
 * HTTP half of pdudaemon's shared port), are checked every `connectionsCheckingInterval` (30 s by
 * default), and `server.maxConnections` refuses the newest connection, which is the legitimate one
 * during a flood.
 */
import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { systemClock, type Clock, type TimerHandle } from '../core/index';

export interface ConnectionLimits {
  /** Connections open at once, from all clients together. */
  maxConnections: number;
  /** Connections open at once from one client address. */
  maxPerAddress: number;
  /** From connect (or the end of the previous answer) to a complete request, ms. */
  requestDeadlineMs: number;
}

export interface ConnectionGuardOptions {
  /** The listener's name, for log lines ("pdudaemon", "api", "web"). */
  name: string;
  limits: ConnectionLimits;
  /** Where refusals, evictions and deadlines are told; pass a limitedLog, strangers trigger these. */
  log: (message: string) => void;
  clock?: Clock;
}

export interface ConnectionGuard {
  /** Take a new connection: false (and the socket is destroyed) when it is refused. */
  admit(socket: Socket): boolean;
  /** A complete request arrived on the connection: no deadline while it is being answered. */
  requestStarted(socket: Socket): void;
  /** Its answer has been handed to the socket: the deadline runs again until the next request. */
  requestAnswered(socket: Socket): void;
  /** Destroy every connection not serving a request (a shutdown starts). */
  closeIdle(): void;
  /** Destroy every connection (the shutdown's grace period is over). */
  closeAll(): void;
  /** Resolves once no connection is open. */
  whenEmpty(): Promise<void>;
  /** Connections open now. */
  readonly size: number;
}

interface Entry {
  socket: Socket;
  address: string;
  /** Requests received and not yet answered (HTTP may pipeline). */
  busy: number;
  deadline: TimerHandle | null;
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
const plain = (address: string): string =>
  /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;

export function createConnectionGuard(options: ConnectionGuardOptions): ConnectionGuard {
  const { name, limits, log } = options;
  const clock = options.clock ?? systemClock;
  // Insertion order is waiting order: an entry is moved to the end each time it starts waiting.
  const entries = new Map<Entry, true>();
  const byAddress = new Map<string, Set<Entry>>();
  const bySocket = new WeakMap<Socket, Entry>();
  const seconds = limits.requestDeadlineMs / 1000;
  const emptied: (() => void)[] = [];

  const destroy = (entry: Entry) => entry.socket.destroy();
  const forget = (entry: Entry) => {
    if (!entries.delete(entry)) return;
    if (entry.deadline) clock.clearTimeout(entry.deadline);
    entry.deadline = null;
    const same = byAddress.get(entry.address);
    same?.delete(entry);
    if (same?.size === 0) byAddress.delete(entry.address);
    if (entries.size === 0) for (const resolve of emptied.splice(0)) resolve();
  };
  const startWaiting = (entry: Entry) => {
    if (!entries.has(entry)) return;
    entries.delete(entry);
    entries.set(entry, true);
    const same = byAddress.get(entry.address);
    same?.delete(entry);
    same?.add(entry);
    if (entry.deadline) clock.clearTimeout(entry.deadline);
    entry.deadline = clock.setTimeout(() => {
      entry.deadline = null;
      if (entry.busy > 0 || !entries.has(entry)) return;
      log(
        `${name}: closed a connection from ${entry.address} that sent no complete request within ${seconds} s.`,
      );
      destroy(entry);
    }, limits.requestDeadlineMs);
    entry.deadline.unref?.();
  };
  /** The oldest connection among `candidates` that is not serving a request. */
  const oldestIdle = (candidates: Iterable<Entry>): Entry | null => {
    for (const entry of candidates) if (entry.busy === 0) return entry;
    return null;
  };
  /** Make room under one cap: false when every connection it counts is busy. */
  const makeRoom = (count: number, max: number, candidates: Iterable<Entry>, what: string) => {
    if (count < max) return true;
    const victim = oldestIdle(candidates);
    if (!victim) return false;
    log(`${name}: ${what} are open; closed the one from ${victim.address} idle longest to make room.`);
    destroy(victim);
    forget(victim);
    return true;
  };
  const entryOf = (socket: Socket): Entry | undefined => bySocket.get(socket);

  return {
    admit(socket) {
      socket.on('error', () => undefined);
      const remote = socket.remoteAddress;
      if (!remote) {
        socket.destroy();
        return false;
      }
      const address = plain(remote);
      const same = byAddress.get(address) ?? new Set<Entry>();
      const full = !makeRoom(
        same.size,
        limits.maxPerAddress,
        same,
        `${limits.maxPerAddress} connections from ${address}`,
      )
        ? `all ${limits.maxPerAddress} connections one address may hold are serving requests`
        : !makeRoom(
              entries.size,
              limits.maxConnections,
              entries.keys(),
              `${limits.maxConnections} connections`,
            )
          ? `all ${limits.maxConnections} connections this listener takes are serving requests`
          : null;
      if (full) {
        log(`${name}: refused a connection from ${address}: ${full}.`);
        socket.destroy();
        return false;
      }
      const entry: Entry = { socket, address, busy: 0, deadline: null };
      entries.set(entry, true);
      byAddress.set(address, same.add(entry));
      bySocket.set(socket, entry);
      socket.once('close', () => forget(entry));
      // Our side is done (an answer and then end()): no half-closed socket is kept for the client.
      socket.once('finish', () => socket.destroy());
      startWaiting(entry);
      return true;
    },
    requestStarted(socket) {
      const entry = entryOf(socket);
      if (!entry) return;
      entry.busy++;
      if (entry.deadline) clock.clearTimeout(entry.deadline);
      entry.deadline = null;
    },
    requestAnswered(socket) {
      const entry = entryOf(socket);
      if (!entry) return;
      entry.busy = Math.max(0, entry.busy - 1);
      if (entry.busy === 0) startWaiting(entry);
    },
    closeIdle() {
      for (const entry of [...entries.keys()]) if (entry.busy === 0) destroy(entry);
    },
    closeAll() {
      for (const entry of [...entries.keys()]) destroy(entry);
    },
    whenEmpty() {
      return entries.size === 0 ? Promise.resolve() : new Promise((resolve) => emptied.push(resolve));
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * Put a guard on an HTTP(S) server: every connection is admitted (or refused) before a byte is read, a
 * request (or a WebSocket upgrade) stops the deadline, and the end of its response starts it again. On
 * HTTPS the TLS handshake is part of the time to a complete request.
 */
export function guardHttpServer(server: HttpServer | HttpsServer, guard: ConnectionGuard): void {
  // The TLS socket a request arrives on wraps the TCP one the guard admitted: same peer address and port.
  const tcpByPeer = new Map<string, Socket>();
  const aliases = new WeakMap<Socket, Socket>();
  const peer = (socket: Socket) => `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;
  const raw = (socket: Socket): Socket => aliases.get(socket) ?? socket;
  server.on('connection', (socket: Socket) => {
    if (!guard.admit(socket)) return;
    const key = peer(socket);
    tcpByPeer.set(key, socket);
    socket.once('close', () => tcpByPeer.delete(key));
  });
  server.on('secureConnection', (tls: TLSSocket) => {
    const tcp = tcpByPeer.get(peer(tls));
    if (tcp) aliases.set(tls, tcp);
    tls.on('error', () => undefined);
    tls.once('finish', () => tls.destroy());
  });
  server.on('request', (request, response) => {
    const socket = raw(request.socket);
    guard.requestStarted(socket);
    response.once('prefinish', () => guard.requestAnswered(socket));
  });
  // An upgrade is a request that is never answered in HTTP: the WebSocket lives until either side closes.
  server.on('upgrade', (request) => guard.requestStarted(raw(request.socket)));
}
