/**
 * What the transport promises about the wire, against small real HTTP servers on 127.0.0.1: which
 * redirects it follows, how it reads challenges and answers, and where the size cap is.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PlugboardError } from '../../src-main/shared/errors';
import { client, failure } from './helpers';
import { FIXTURE_OUTLETS } from './fixtures';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise((resolve) => s.close(resolve));
    }),
  );
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A Digest challenge the client can answer (RFC 2069 form, as real units send it). */
const DIGEST = 'Digest realm="lab", nonce="n-4711"';

describe('the transport', () => {
  it('follows redirects when probing a web page: a DLI login page behind one means the API is off', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/') {
        res.writeHead(302, { location: '/login.htm' }).end();
      } else if (req.url === '/login.htm') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Digital Loggers</title>');
      } else {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html>not here</html>');
      }
    });
    expect((await failure(client(url).outlets.list())).code).toBe('API_DISABLED');
  });

  it('never follows a redirect of an API request, so credentials stay with the controller', async () => {
    const elsewhere: string[] = [];
    const other = await serve((req, res) => {
      elsewhere.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(FIXTURE_OUTLETS));
    });
    const url = await serve((req, res) => {
      res.writeHead(301, { location: `${other}${req.url}` }).end();
    });
    const error = await failure(
      client(url, { credentials: { kind: 'token', token: 'c1.secret' } }).outlets.list(),
    );
    expect(error.code).not.toBe('INTERNAL');
    expect(elsewhere).toEqual([]);
  });

  it('reads a challenge sent as several WWW-Authenticate headers, as one list', async () => {
    const authorizations: string[] = [];
    const url = await serve((req, res) => {
      const authorization = req.headers.authorization ?? '';
      authorizations.push(authorization);
      if (!authorization.startsWith('Digest ')) {
        res.writeHead(401, [
          ['WWW-Authenticate', 'Basic realm="lab"'],
          ['WWW-Authenticate', DIGEST],
        ]);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(FIXTURE_OUTLETS));
    });
    expect(await client(url).outlets.list()).toHaveLength(8);
    expect(authorizations.at(-1)).toMatch(/^Digest username="admin", realm="lab", nonce="n-4711"/);
  });

  it('reads the answer of a server that compresses whatever the request does not refuse', async () => {
    const url = await serve((req, res) => {
      if (!req.headers.authorization) {
        res.writeHead(401, { 'WWW-Authenticate': DIGEST }).end();
        return;
      }
      const body = Buffer.from(JSON.stringify(FIXTURE_OUTLETS));
      const accepted = req.headers['accept-encoding'];
      if (accepted === undefined || /gzip/.test(accepted)) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(body));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }
    });
    expect((await client(url).outlets.list()).map((o) => o.name)).toEqual(FIXTURE_OUTLETS.map((o) => o.name));
  });

  it('refuses an answer larger than 32 MiB with DEVICE_ERROR, and the next call still works', async () => {
    let huge = true;
    const url = await serve((req, res) => {
      if (!req.headers.authorization) {
        res.writeHead(401, { 'WWW-Authenticate': DIGEST }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (!huge) {
        res.end(JSON.stringify(FIXTURE_OUTLETS));
        return;
      }
      huge = false;
      const block = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = (): void => {
        while (sent < 40 && !res.destroyed) {
          sent += 1;
          if (!res.write(block)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const c = client(url);
    const error = await failure(c.outlets.list());
    expect(error.code).toBe('DEVICE_ERROR');
    expect(error.message).toContain('larger than 32 MiB');
    expect(await c.outlets.list()).toHaveLength(8);
  });
});

describe('the fence before a write', () => {
  /**
   * A unit that records every request it is sent, challenges one without a login, and the first change
   * with a new nonce (a nonce the unit no longer takes), so that change needs a second send.
   */
  async function recordingUnit(seen: string[]): Promise<string> {
    let changes = 0;
    return serve((req, res) => {
      seen.push(`${req.method} ${req.headers.authorization?.startsWith('Digest ') ? 'signed' : 'bare'}`);
      if (req.method !== 'GET' && ++changes === 1) {
        res.writeHead(401, { 'WWW-Authenticate': 'Digest realm="lab", nonce="n-4712"' }).end();
        return;
      }
      if (!req.headers.authorization?.startsWith('Digest ')) {
        res.writeHead(401, { 'WWW-Authenticate': DIGEST }).end();
        return;
      }
      if (req.method === 'GET')
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(FIXTURE_OUTLETS));
      else res.writeHead(204).end();
    });
  }

  it('sends no change when the check refuses it, and still reads', async () => {
    const seen: string[] = [];
    const url = await recordingUnit(seen);
    const refusal = new PlugboardError(
      'STANDBY',
      'This Plugboard service (b) is a standby: a leads the lab.',
    );
    const fenced = client(url, {
      beforeWrite: () => {
        throw refusal;
      },
    });
    expect(await fenced.outlets.list()).toHaveLength(8);
    const reads = seen.length;
    const error = await failure(fenced.outlets.setState([3], true));
    expect(error.code).toBe('STANDBY');
    expect(error.message).toBe(refusal.message);
    expect(seen.slice(reads)).toEqual([]);
  });

  it("asks again before a digest challenge's second send, and sends nothing more when it refuses then", async () => {
    const seen: string[] = [];
    const url = await recordingUnit(seen);
    let asked = 0;
    const fenced = client(url, {
      beforeWrite: () => {
        asked += 1;
        // Leads for the first send (answered by a challenge), not for the second.
        if (asked > 1) throw new PlugboardError('STANDBY', 'This Plugboard service (b) is a standby.');
      },
    });
    expect(await fenced.outlets.list()).toHaveLength(8);
    const reads = seen.length;
    const error = await failure(fenced.outlets.setState([3], true));
    expect(error.code).toBe('STANDBY');
    expect(asked).toBe(2);
    expect(seen.slice(reads)).toEqual(['PUT signed']);
  });
});
