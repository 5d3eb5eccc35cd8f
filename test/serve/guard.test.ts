/**
 * The client-network allowlist, wired into a listener: real HTTP over loopback, with the address the
 * server sees for the connection set to a lab-network one (tests reach nothing beyond 127.0.0.0/8).
 */
import { request } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedServer, sendJson } from '../../src-main/serve/listener';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { parseAllow, SERVER_LIMITS } from '../../src-main/serve/network';
import { newCore, cleanUp } from '../core/harness';

const servers: Server[] = [];
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

  it('sets server-side timeouts and a connection cap on every listener', () => {
    const { server, refusals } = createGuardedServer(
      {
        core: newCore().core,
        spec: { name: 'api', host: '127.0.0.1', port: 0 },
        allow: null,
        tokens: [],
        hostNames: [],
        tls: null,
        metrics: new ServiceMetrics(),
        log: () => undefined,
      },
      () => undefined,
    );
    refusals.close();
    expect({
      headersTimeout: server.headersTimeout,
      requestTimeout: server.requestTimeout,
      keepAliveTimeout: server.keepAliveTimeout,
      maxConnections: server.maxConnections,
      maxHeadersCount: server.maxHeadersCount,
    }).toEqual(SERVER_LIMITS);
    // Tighter than Node's defaults (60 s for the headers, 300 s for a request, no connection cap).
    expect(SERVER_LIMITS.headersTimeout).toBeLessThan(60_000);
    expect(SERVER_LIMITS.requestTimeout).toBeLessThan(300_000);
  });
});
