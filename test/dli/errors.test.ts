/** Every error code the client can raise, provoked for real (emulator fault hooks, a foreign server, TLS). */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DliClient } from '../../src-main/dli/client';
import { access, client, emulator, failure } from './helpers';

let foreign: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => (foreign ? foreign.close(resolve) : resolve(null)));
  foreign = null;
});

describe('login', () => {
  it('AUTH_FAILED after one re-challenge, naming the controller and user but never the password', async () => {
    const unit = await emulator();
    const c = client(unit.url, {
      name: 'Bench A',
      credentials: { kind: 'digest', user: 'admin', password: 's3cret-wrong' },
    });
    const error = await failure(c.outlets.list());
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('Bench A');
    expect(error.message).toContain('"admin"');
    expect(error.message).not.toContain('s3cret-wrong');
    expect(unit.device.stats.requests).toBe(2);
    expect(unit.device.stats.unauthorized).toBe(2);
  });

  it('answers a stale nonce with one new challenge', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.expireNonces();
    unit.device.stats.reset();
    expect(await c.outlets.list()).toHaveLength(8);
    expect(unit.device.stats.log.map((e) => e.status)).toEqual([401, 200]);
  });

  it('uses a bearer token, and AUTH_FAILED when it is wrong', async () => {
    const unit = await emulator();
    const token = unit.device.issueToken('bot', [
      '/relay/outlets/all;/=state,transient_state/?access=modify',
    ]);
    const c = client(unit.url, { credentials: { kind: 'token', token } });
    expect((await c.outlets.setState([2], true)).failed).toEqual([]);
    expect(unit.device.outlet(1).state).toBe(true);
    expect(unit.device.stats.unauthorized).toBe(0);
    const bad = client(unit.url, { credentials: { kind: 'token', token: `${token}x` } });
    const error = await failure(bad.outlets.list());
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('token');
  });

  it('sends Basic only when chosen, and it works only with plaintext logins allowed', async () => {
    const unit = await emulator();
    const basic = client(unit.url, { credentials: { kind: 'basic', user: 'admin', password: '1234' } });
    const refused = await failure(basic.outlets.list());
    expect(refused.code).toBe('AUTH_FAILED');
    expect(refused.message).toMatch(/refused user "admin" with Basic authentication\.$/);
    expect(refused.action).toContain('Allow legacy plaintext login methods');
    unit.device.setConfig({ allowPlaintextLogins: true });
    expect(await basic.outlets.list()).toHaveLength(8);
  });
});

describe('permissions and state', () => {
  it('FORBIDDEN for a non-admin user reading users or running scripts', async () => {
    const unit = await emulator();
    unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([1]) });
    const bob = client(unit.url, {
      name: 'Bench A',
      credentials: { kind: 'digest', user: 'bob', password: 'pw' },
    });
    const users = await failure(bob.users.list());
    expect(users.code).toBe('FORBIDDEN');
    expect(users.message).toContain('Only administrators can manage users on Bench A');
    expect((await failure(bob.scripts.list())).code).toBe('FORBIDDEN');
  });

  it('LOCKED for a locked outlet', async () => {
    const unit = await emulator();
    unit.device.setOutlet(3, { state: true });
    unit.device.lock(3);
    expect((await failure(client(unit.url).outlets.cycle(4))).code).toBe('LOCKED');
  });

  it('BAD_INPUT for input the controller cannot take, before any request', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    expect((await failure(c.scripts.start('os.execute("x")'))).code).toBe('BAD_INPUT');
    expect((await failure(c.scripts.stop(['1; rm']))).code).toBe('BAD_INPUT');
    expect((await failure(c.system.tree('a/../b'))).code).toBe('BAD_INPUT');
    expect(unit.device.stats.requests).toBe(0);
    expect(() => new DliClient({ url: 'ftp://x', credentials: { kind: 'token', token: 'a.b' } })).toThrow(
      /http:\/\/ or https:\/\//,
    );
  });
});

describe('an unhealthy or wrong controller', () => {
  it('API_DISABLED when "Allow REST-style API" is off', async () => {
    const unit = await emulator();
    unit.device.setConfig({ restApiEnabled: false });
    const error = await failure(client(unit.url, { name: 'Bench A' }).outlets.list());
    expect(error.code).toBe('API_DISABLED');
    // What went wrong and what to do are separate fields, so the window never parses one out of the other.
    expect(error.toContractError()).toMatchObject({
      message: expect.not.stringContaining('Allow REST-style API'),
      action: 'Turn on "Allow REST-style API" on the controller\'s External APIs page, then try again.',
    });
  });

  it('DEVICE_ERROR for a 500 and for malformed JSON', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.faults.add({ kind: 'error500', times: 1 });
    const crashed = await failure(c.outlets.list());
    expect(crashed.code).toBe('DEVICE_ERROR');
    expect(crashed.message).toMatch(
      /internal error \(500\) while trying to read the outlets \(the controller says: [^)]*\)\.$/,
    );
    expect(crashed.action).toBe('Try again; if it keeps failing, reboot the controller.');
    unit.device.faults.add({ kind: 'malformedJson', times: 1 });
    const garbled = await failure(c.outlets.list());
    expect(garbled.code).toBe('DEVICE_ERROR');
    expect(garbled.message).toContain('malformed');
    expect(garbled.message).not.toContain('reboot');
    expect(garbled.action).toBe('Try again; if it keeps happening, reboot the controller.');
    expect(await c.outlets.list()).toHaveLength(8);
  });

  it('TIMEOUT when the controller hangs, and the next call still works', async () => {
    const unit = await emulator();
    const c = client(unit.url, { name: 'Bench A' });
    await c.outlets.list();
    unit.device.faults.add({ kind: 'hang', times: 1 });
    const error = await failure(c.outlets.list({ timeoutMs: 300 }));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('Bench A did not answer within 0.3 s');
    expect(await c.outlets.list()).toHaveLength(8);
  });

  it('CANCELLED when the caller aborts, queued or in flight', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.outlets.list();
    // The first request is never answered: it is in flight, the second queued behind it, when the caller aborts.
    unit.device.faults.add({ kind: 'hang', times: 1 });
    const controller = new AbortController();
    const inFlight = c.outlets.list({ signal: controller.signal });
    const queued = c.outlets.list({ signal: controller.signal });
    await vi.waitFor(() => expect(unit.device.stats.inFlight).toBe(1), { timeout: 15_000, interval: 5 });
    controller.abort();
    expect((await failure(inFlight)).code).toBe('CANCELLED');
    expect((await failure(queued)).code).toBe('CANCELLED');
  });

  it('UNREACHABLE when the controller is offline, and back when it returns', async () => {
    const unit = await emulator();
    const c = client(unit.url, { name: 'Bench A' });
    await c.outlets.list();
    await unit.device.goOffline();
    const error = await failure(c.outlets.list());
    expect(error.code).toBe('UNREACHABLE');
    expect(error.message).toContain('Cannot reach Bench A');
    await unit.device.comeBack();
    expect(await c.outlets.list()).toHaveLength(8);
  });

  it('UNREACHABLE when the connection is dropped without an answer', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.faults.add({ kind: 'drop', times: 1 });
    expect((await failure(c.outlets.list())).code).toBe('UNREACHABLE');
  });

  it('NOT_A_CONTROLLER for another web server', async () => {
    foreign = createServer((req, res) => {
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' });
      res.end('<html><title>Router admin</title></html>');
    });
    await new Promise<void>((resolve) => foreign!.listen(0, '127.0.0.1', resolve));
    const address = foreign.address() as { port: number };
    const error = await failure(client(`http://127.0.0.1:${address.port}`).describe());
    expect(error.code).toBe('NOT_A_CONTROLLER');
  });

  it('NOT_A_CONTROLLER for a server answering web pages with 200', async () => {
    foreign = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><title>Some page</title></html>');
    });
    await new Promise<void>((resolve) => foreign!.listen(0, '127.0.0.1', resolve));
    const address = foreign.address() as { port: number };
    expect((await failure(client(`http://127.0.0.1:${address.port}`).describe())).code).toBe(
      'NOT_A_CONTROLLER',
    );
  });
});

describe('narrow access tokens', () => {
  it('describe() leaves out what the token may not read instead of failing', async () => {
    const unit = await emulator();
    const token = unit.device.issueToken('bot', [
      '/relay/outlets/all;/=state,transient_state/?access=modify',
    ]);
    const c = client(unit.url, { credentials: { kind: 'token', token } });
    const description = await c.describe();
    expect(description.identity).toMatchObject({ model: '', firmware: '' });
    expect(description.outlets).toEqual([]);
    expect(description.capabilities).toMatchObject({ outletCount: 8, isAdmin: false });
    expect(description.capabilities.outletAccess).toEqual(Array(8).fill(true));
    expect((await c.outlets.setState('all', true)).requested).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

it('UNSUPPORTED_FIRMWARE for an access token on firmware before 1.10, without a request', async () => {
  const unit = await emulator({ firmware: '1.9.3.0' });
  const c = client(unit.url, { firmware: '1.9.3.0', credentials: { kind: 'token', token: 'bot.c2VjcmV0' } });
  const error = await failure(c.outlets.list());
  expect(error.code).toBe('UNSUPPORTED_FIRMWARE');
  expect(error.detail).toMatchObject({ requiredFirmware: '1.10' });
  expect(unit.device.stats.requests).toBe(0);
});
