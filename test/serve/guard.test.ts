/**
 * The client-network allowlist, wired into a listener: real HTTP over loopback, with the address the
 * server sees for the connection set to a lab-network one (tests reach nothing beyond 127.0.0.0/8).
 */
import { request } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGuardedServer, sendJson } from '../../src-main/serve/listener';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { parseAllow } from '../../src-main/serve/network';
import { newCore, cleanUp } from '../core/harness';
import { apiContext } from './api-services';

const servers: (Server | HttpServer)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  await cleanUp();
});

/** A front socket server that hands each connection to the guarded server as if it came from `from`. */
async function guardedFrom(from: string, metrics: ServiceMetrics): Promise<number> {
  const allow = parseAllow('192.168.10.0/24');
  if (typeof allow === 'string') throw new Error(allow);
  const logged: string[] = [];
  const { server, refusals } = createGuardedServer(
    {
      core: newCore().core,
      spec: { name: 'api', host: '0.0.0.0', port: 0 },
      allow,
      tokens: [],
      hostNames: [],
      tls: null,
      metrics,
      log: (message) => logged.push(message),
    },
    (_request, response) => sendJson(response, 200, { ok: true }),
  );
  const front = createServer((socket: Socket) => {
    Object.defineProperty(socket, 'remoteAddress', { value: from });
    server.emit('connection', socket);
  });
  front.on('close', () => {
    refusals.close();
    server.closeAllConnections();
  });
  servers.push(front);
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return (front.address() as AddressInfo).port;
}

function get(port: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/controllers', agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the client-network allowlist on a listener', () => {
  it('answers a client in an allowed network and refuses one outside it, saying why', async () => {
    const metrics = new ServiceMetrics();
    expect((await get(await guardedFrom('192.168.10.7', metrics))).status).toBe(200);
    const refused = await get(await guardedFrom('192.168.11.7', metrics));
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('192.168.11.7 is not in the client networks');
    expect(await metrics.render([], [])).toContain(
      'plugboard_request_errors_total{listener="api",code="FORBIDDEN"} 1',
    );
  });

  it('closes the socket after answering a request it cannot read, even if the client keeps its side open', async () => {
    const { server, refusals } = createGuardedServer(apiContext(newCore().core), () => undefined);
    servers.push(server);
    server.on('close', () => refusals.close());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = connect({
      port: (server.address() as AddressInfo).port,
      host: '127.0.0.1',
      allowHalfOpen: true,
    });
    let reply = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (reply += chunk));
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    await ended;
    expect(reply).toMatch(
      /^HTTP\/1\.1 400 Bad Request\r\n[^]*Connection: close[^]*The request is not well-formed HTTP\/1\.1\.\n$/,
    );
    // Not half-closed: the server holds no connection for this client any more.
    const open = () => new Promise<number>((resolve) => server.getConnections((_e, count) => resolve(count)));
    await vi.waitFor(async () => expect(await open()).toBe(0), { timeout: 15_000, interval: 10 });
    socket.destroy();
  });
});
