/**
 * Issue 16 item 14: a 403 from a server that is not a controller is "not a controller", not a
 * permissions problem; a controller's own 403 (a user without the right) stays FORBIDDEN.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { access, client, emulator, failure } from './helpers';

let foreign: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => (foreign ? foreign.close(resolve) : resolve(null)));
  foreign = null;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  foreign = createServer(handler);
  await new Promise<void>((resolve) => foreign!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(foreign.address() as { port: number }).port}`;
}

it('NOT_A_CONTROLLER for a web server that forbids every path with a page', async () => {
  const url = await serve((_req, res) => {
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<html><head><title>403 Forbidden</title></head><body><center>nginx</center></body></html>');
  });
  const error = await failure(client(url).describe());
  expect(error.code).toBe('NOT_A_CONTROLLER');
  expect(error.message).toContain('403 Forbidden');
  expect(error.message).toContain('not a power controller');
});

it('NOT_A_CONTROLLER for an empty 403 from something that never asks for a login', async () => {
  const url = await serve((_req, res) => {
    res.writeHead(403);
    res.end();
  });
  expect((await failure(client(url).describe())).code).toBe('NOT_A_CONTROLLER');
});

it('stays FORBIDDEN when a web-page 403 comes from a Digital Loggers controller', async () => {
  const url = await serve((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><title>Digital Loggers Web Power Switch</title></html>');
      return;
    }
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<html>Forbidden</html>');
  });
  expect((await failure(client(url).describe())).code).toBe('FORBIDDEN');
});

it("stays FORBIDDEN for the emulator's own 403 to a user without the right", async () => {
  const unit = await emulator();
  unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([1]) });
  const bob = client(unit.url, { credentials: { kind: 'digest', user: 'bob', password: 'pw' } });
  const error = await failure(bob.scripts.start('flash_a_light'));
  expect(error.code).toBe('FORBIDDEN');
});
