/**
 * A small stand-in for a real unit on 127.0.0.1: fixed JSON answers per path (no login; the client's
 * digest credentials are simply never challenged), plus per-test handlers for the answers the emulator
 * does not model (a meter map with `false` values, a 207 whose failed element has no `status`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { FIXTURE_FILES } from './fixtures';

export interface FixtureAnswer {
  status: number;
  body?: unknown;
}

/** Answers a request itself, or returns undefined to fall back to the fixed files. */
export type FixtureHandler = (method: string, path: string, body: string) => FixtureAnswer | undefined;

export interface FixtureUnit {
  url: string;
  /** Every request as `METHOD path` (below /restapi/). */
  requests: string[];
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((done) => s.close(() => done()))));
});

export async function fixtureUnit(
  files: Record<string, unknown> = {},
  handler: FixtureHandler = () => undefined,
): Promise<FixtureUnit> {
  const all = { ...FIXTURE_FILES, ...files };
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = decodeURI((request.url ?? '/').replace(/^\/restapi\/?/, '').split('?')[0] ?? '');
      const method = request.method ?? 'GET';
      requests.push(`${method} ${path}`);
      const answer =
        handler(method, path, body) ??
        (method === 'GET' && path in all ? { status: 200, body: all[path] } : { status: 404 });
      const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
      response.writeHead(answer.status, {
        'Content-Type': 'application/json',
        Connection: 'close',
      });
      response.end(text);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
