/**
 * The connection guard every listener shares, on a real TCP server on 127.0.0.1 with clients bound to
 * other loopback addresses, and the fake clock for its deadlines: a line ending in a newline stands for
 * a complete request here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, request, type Server as HttpsServer } from 'node:https';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTls } from '../../src-main/serve/tls';
import {
  createConnectionGuard,
  guardHttpServer,
  type ConnectionGuard,
  type ConnectionLimits,
} from '../../src-main/web/connection-guard';
import { FakeClock } from '../core/fake-clock';

const servers: (Server | HttpsServer)[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

interface Guarded {
  guard: ConnectionGuard;
  clock: FakeClock;
  port: number;
  /** The server's side of every admitted connection, in order. */
  accepted: Socket[];
  logged: string[];
}

/** A server whose connections go through a guard; a line ending in \n is a request, answered on `answer`. */
async function guarded(limits: Partial<ConnectionLimits> = {}): Promise<Guarded> {
  const clock = new FakeClock();
  const logged: string[] = [];
  const guard = createConnectionGuard({
    name: 'test',
    limits: { maxConnections: 10, maxPerAddress: 10, requestDeadlineMs: 10_000, ...limits },
    log: (line) => logged.push(line),
    clock,
  });
  const accepted: Socket[] = [];
  const server = createServer((socket) => {
    if (!guard.admit(socket)) return;
    accepted.push(socket);
    let text = '';
    socket.on('data', (chunk) => {
      text += String(chunk);
      if (text.endsWith('\n')) guard.requestStarted(socket);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { guard, clock, port: (server.address() as AddressInfo).port, accepted, logged };
}

interface Client {
  socket: Socket;
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A client from `from`, once the server has taken (or refused) it. */
async function client(
  g: Guarded,
  from = '127.0.0.1',
  options: { allowHalfOpen?: boolean } = {},
): Promise<Client> {
  const seen = g.accepted.length + g.logged.filter((l) => l.includes('refused')).length;
  const socket = connect({ port: g.port, host: '127.0.0.1', localAddress: from, ...options });
  clients.push(socket);
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  let closed = false;
  const whenClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void whenClosed.then(() => (closed = true));
  await vi.waitFor(
    () => expect(g.accepted.length + g.logged.filter((l) => l.includes('refused')).length).toBe(seen + 1),
    { timeout: 15_000, interval: 5 },
  );
  return { socket, closed: whenClosed, isClosed: () => closed };
}

/** Write and wait until the server's side has read it. */
async function send(g: Guarded, index: number, c: Client, text: string): Promise<void> {
  const server = g.accepted[index]!;
  const read = new Promise<void>((resolve) => server.once('data', () => resolve()));
  c.socket.write(text);
  await read;
}

describe('the deadline to a complete request', () => {
  it('closes a connection at its deadline from connect, however much it keeps sending', async () => {
    const g = await guarded();
    const c = await client(g);
    await send(g, 0, c, 'GET / HTTP/1.1');
    await g.clock.advance(6_000);
    await send(g, 0, c, ' X-Slow: 1');
    await g.clock.advance(3_999);
    expect(g.accepted[0]!.destroyed).toBe(false);
    await g.clock.advance(1);
    await c.closed;
    expect(g.logged.join('\n')).toContain('sent no complete request within 10 s');
  });

  it('runs no deadline while a request is answered, and runs it again after the answer', async () => {
    const g = await guarded();
    const c = await client(g);
    await send(g, 0, c, 'bench-a 3 reboot 300\n');
    await g.clock.advance(600_000);
    expect(g.accepted[0]!.destroyed).toBe(false);
    g.guard.requestAnswered(g.accepted[0]!);
    await g.clock.advance(10_000);
    await c.closed;
  });
});

describe('the connection caps', () => {
  it('closes the oldest idle connection of an address at its cap, and refuses a newcomer when all are busy', async () => {
    const g = await guarded({ maxPerAddress: 2 });
    const a = await client(g, '127.0.0.2');
    const b = await client(g, '127.0.0.2');
    await send(g, 1, b, 'busy\n');
    const c = await client(g, '127.0.0.2');
    await a.closed;
    const d = await client(g, '127.0.0.2');
    await c.closed;
    await send(g, 3, d, 'busy\n');
    const e = await client(g, '127.0.0.2');
    await e.closed;
    expect(g.logged.at(-1)).toMatch(/refused a connection from 127\.0\.0\.2: all 2 connections one address/);
    // Another address is not held back by this one's.
    const other = await client(g, '127.0.0.3');
    expect([b.isClosed(), d.isClosed(), other.isClosed()]).toEqual([false, false, false]);
    expect(g.guard.size).toBe(3);
  });

  it('closes the oldest idle connection of any address at the global cap', async () => {
    const g = await guarded({ maxConnections: 3 });
    const a = await client(g, '127.0.0.2');
    const b = await client(g, '127.0.0.3');
    const c = await client(g, '127.0.0.4');
    await send(g, 2, c, 'busy\n');
    const d = await client(g, '127.0.0.5');
    await a.closed;
    expect([b.isClosed(), c.isClosed(), d.isClosed()]).toEqual([false, false, false]);
  });

  it('counts a kept-alive connection as idle from the end of its last answer, not from its connect', async () => {
    const g = await guarded({ maxPerAddress: 2 });
    const a = await client(g, '127.0.0.2');
    const b = await client(g, '127.0.0.2');
    await send(g, 0, a, 'first\n');
    g.guard.requestAnswered(g.accepted[0]!);
    // b has waited longest now.
    await client(g, '127.0.0.2');
    await b.closed;
    expect(a.isClosed()).toBe(false);
  });
});

describe('closing', () => {
  it('destroys a socket once its answer is written, instead of leaving it half-closed', async () => {
    const g = await guarded();
    const c = await client(g, '127.0.0.1', { allowHalfOpen: true });
    await send(g, 0, c, 'bench-a 3 off\n');
    const ended = new Promise<void>((resolve) => c.socket.once('end', () => resolve()));
    g.accepted[0]!.end('ack\n');
    await ended;
    // The client keeps its side open; the server's socket is gone all the same.
    await g.guard.whenEmpty();
    expect(g.accepted[0]!.destroyed).toBe(true);
    expect(c.isClosed()).toBe(false);
  });

  it('closes idle connections first and everything at the end of the grace period', async () => {
    const g = await guarded();
    const idle = await client(g);
    const busy = await client(g);
    await send(g, 1, busy, 'bench-a 3 reboot 300\n');
    g.guard.closeIdle();
    await idle.closed;
    expect(busy.isClosed()).toBe(false);
    const empty = g.guard.whenEmpty();
    g.guard.closeAll();
    await busy.closed;
    await empty;
    expect(g.guard.size).toBe(0);
  });
});

describe('on HTTPS', () => {
  it('runs the deadline through the TLS handshake, and stops it for a request in progress', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-guard-tls-'));
    try {
      const tls = (await loadTls({ kind: 'self-signed' }, dir, ['127.0.0.1']))!;
      const clock = new FakeClock();
      const guard = createConnectionGuard({
        name: 'api',
        limits: { maxConnections: 10, maxPerAddress: 10, requestDeadlineMs: 10_000 },
        log: () => undefined,
        clock,
      });
      let answer: (() => void) | null = null;
      const server = createHttpsServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
        answer = () => res.end('late but whole\n');
      });
      guardHttpServer(server, guard);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;

      // A TLS client that never starts its handshake is closed at the deadline.
      const silent = connect({ port, host: '127.0.0.1' });
      clients.push(silent);
      silent.on('error', () => undefined);
      const silentClosed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
      await vi.waitFor(() => expect(guard.size).toBe(1), { timeout: 15_000, interval: 5 });
      await clock.advance(10_000);
      await silentClosed;

      // A request the handler takes its time over keeps its connection past the deadline.
      const reply = new Promise<string>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/', rejectUnauthorized: false, agent: false },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve(body));
          },
        );
        req.on('error', reject);
        req.end();
      });
      await vi.waitFor(() => expect(answer).not.toBeNull(), { timeout: 15_000, interval: 5 });
      await clock.advance(60_000);
      answer!();
      expect(await reply).toBe('late but whole\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
