import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { parseCli } from '../../src-main/emulator/cli';
import { curl, header, json, python } from './clients';

// The real-unit profile on the wire (sources in src-main/emulator/README.md). The 5 s delay of the full
// outlet list is scaled down here; the slow answers themselves are checked in real-unit-slow.system.test.ts.
let real: RunningEmulator;
let fast: RunningEmulator;
const csrf = { 'X-CSRF': 'x' };

beforeAll(async () => {
  [real, fast] = await Promise.all([
    startEmulator({ realUnit: true, slowOutletListMs: 50, cycleDelay: 0.3, sequenceDelay: 0 }),
    startEmulator({ cycleDelay: 0.3, sequenceDelay: 0 }),
  ]);
});
afterAll(() => Promise.all([real.close(), fast.close()]));

/** The raw bytes of one answer on its own connection (sent without auth: a 401 is an answer too). */
function rawAnswer(url: string, path: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Only a server that closes ends this: a keep-alive answer would leave the socket open.
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(5000, () => reject(new Error('the server kept the connection open')));
  });
}

describe('the real-unit profile', () => {
  it('turns every behaviour on, and an explicit option still wins', async () => {
    expect(real.device.behaviours).toEqual({
      realUnit: true,
      connectionClose: 'chunked',
      depthRefs: 'relative',
      meterMap: 'object-model',
      tokenScopes: 'dli',
      matrixErrors: 'without-status',
      formScriptStart: true,
      cycleTransient: 'follows-relay',
      externalApiGrant: true,
      ungrantedStatus: 403,
      autoping: true,
    });
    expect(real.device.slowOutletListMs).toBe(50);
    const profile = await startEmulator({ realUnit: true, connectionClose: 'close-delimited' });
    try {
      expect(profile.device.slowOutletListMs).toBe(5000);
      expect(profile.device.slowOutletsMs).toBe(0);
      expect(profile.device.behaviours.connectionClose).toBe('close-delimited');
    } finally {
      await profile.close();
    }
    expect(fast.device.behaviours).toMatchObject({
      realUnit: false,
      connectionClose: 'off',
      autoping: false,
    });
  });

  it('the command line: --real-unit, each option alone, bad values exit 2', () => {
    const result = parseCli([
      '--real-unit',
      '--slow-outlet-list-ms',
      '300',
      '--matrix-errors',
      'with-status',
    ]);
    expect(result.ok && result.controllers[0]).toMatchObject({
      realUnit: true,
      slowOutletListMs: 300,
      matrixErrors: 'with-status',
    });
    // Not given: left to the profile (5000).
    const profile = parseCli(['--real-unit']);
    expect(profile.ok && profile.controllers[0]?.slowOutletListMs).toBeUndefined();
    const alone = parseCli(['--cycle-transient', 'follows-relay', '--ungranted-status', '404', '--autoping']);
    expect(alone.ok && alone.controllers[0]).toMatchObject({
      cycleTransient: 'follows-relay',
      ungrantedStatus: 404,
      autoping: true,
    });
    const status = parseCli(['--ungranted-status', '500']);
    expect(status).toMatchObject({ ok: false, exitCode: 2 });
    if (!status.ok) expect(status.output).toMatch(/--ungranted-status.*Expected 401, 403 or 404/);
    const bad = parseCli(['--connection-close', 'sometimes']);
    expect(bad).toMatchObject({ ok: false, exitCode: 2 });
    if (!bad.ok) expect(bad.output).toMatch(/close-delimited, chunked/);
  });
});

describe('Connection: close', () => {
  it('chunked: every answer (401s too) says Connection: close, has no length, and the server closes', async () => {
    const raw = await rawAnswer(real.url, '/restapi/relay/outlets/');
    expect(raw).toMatch(/^HTTP\/1\.1 401/);
    expect(raw).toMatch(/\r\nConnection: close\r\n/i);
    expect(raw).toMatch(/\r\nTransfer-Encoding: chunked\r\n/i);
    expect(raw).not.toMatch(/\r\nContent-Length:/i);
    const answer = await curl(`${real.url}/restapi/relay/outlets/0/`);
    expect(answer.status).toBe(200);
    expect(header(answer, 'connection')).toBe('close');
    expect(header(answer, 'transfer-encoding')).toBe('chunked');
    expect(json(answer)).toMatchObject({ name: 'Outlet 1' });
  });

  it('close-delimited: neither length nor chunking; the body ends with the connection', async () => {
    const emu = await startEmulator({ connectionClose: 'close-delimited' });
    try {
      const raw = await rawAnswer(emu.url, '/restapi/');
      expect(raw).toMatch(/\r\nConnection: close\r\n/i);
      expect(raw).not.toMatch(/\r\n(Content-Length|Transfer-Encoding):/i);
      expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toMatch(/^\{"error":"unauthorized"/);
      const [answer] = await python({ base: emu.url, requests: [{ path: '/restapi/config/serial/' }] });
      expect(answer?.status).toBe(200);
      expect(json(answer!)).toBe(emu.device.serial);
      expect(header(answer!, 'content-length')).toBeUndefined();
    } finally {
      await emu.close();
    }
  });

  it('the fast profile keeps connections alive with Content-Length', async () => {
    const answer = await curl(`${fast.url}/restapi/relay/outlets/0/`);
    expect(header(answer, 'connection')).not.toBe('close');
    expect(Number(header(answer, 'content-length'))).toBe(Buffer.byteLength(answer.body));
  });
});

describe('depth-limited reads', () => {
  it('cut leaves to $refs relative to the resource read, with more than 100 header lines', async () => {
    const answer = await curl(`${real.url}/restapi/config/`, { headers: { Range: 'dli-depth=1' } });
    expect(answer.status).toBe(206);
    const body = json(answer) as Record<string, { $ref: string }>;
    expect(body.serial).toEqual({ $ref: 'serial/' });
    expect(body.version).toEqual({ $ref: 'version/' });
    const lines = Object.values(answer.headers).reduce((sum, values) => sum + values.length, 0);
    expect(lines).toBeGreaterThan(100);
    expect(answer.headers.link).toContain('<serial/>; rel=item');
    // The ref resolves relative to config/.
    expect(json(await curl(`${real.url}/restapi/config/${body.serial?.$ref ?? 'missing/'}`))).toBe(
      real.device.serial,
    );
  });

  it('deeper reads give values above the limit and relative refs at it', async () => {
    const answer = await curl(`${real.url}/restapi/relay/`, { headers: { Range: 'dli-depth=2' } });
    const body = json(answer) as { name: unknown; outlets: unknown[] };
    expect(body.name).toBe('DLI Controller');
    expect(body.outlets[0]).toEqual({ $ref: 'outlets/0/' });
  });

  it('the fast profile keeps absolute container refs and leaf values', async () => {
    const answer = await curl(`${fast.url}/restapi/relay/`, { headers: { Range: 'dli-depth=1' } });
    const body = json(answer) as { name: unknown; outlets: unknown };
    expect(body.name).toBe('DLI Controller');
    expect(body.outlets).toEqual({ $ref: '/restapi/relay/outlets/' });
    expect(answer.headers.link).toBeUndefined();
  });
});

describe('matrix PUT element errors', () => {
  it('a locked outlet fails with an error and no status; the others switch', async () => {
    real.device.lock(7);
    try {
      const answer = await curl(`${real.url}/restapi/relay/outlets/all;/transient_state/`, {
        method: 'PUT',
        headers: csrf,
        data: 'value=true',
      });
      expect(answer.status).toBe(207);
      const elements = json(answer) as unknown[];
      expect(elements.slice(0, 7)).toEqual(Array(7).fill(null));
      expect(elements[7]).toEqual({ error: 'locked' });
      expect(real.device.outlet(7).transientState).toBe(false);
    } finally {
      real.device.unlock(7);
    }
  });

  it('with-status (the fast default) carries the status', async () => {
    fast.device.lock(7);
    try {
      const answer = await curl(`${fast.url}/restapi/relay/outlets/=6,7/transient_state/`, {
        method: 'PUT',
        headers: csrf,
        data: 'value=false',
      });
      expect(json(answer)).toEqual([null, { status: 409, error: 'locked' }]);
    } finally {
      fast.device.unlock(7);
    }
  });
});

describe("rest.html's script/start curl (no Content-Type: curl sends a form)", () => {
  const start = (url: string) =>
    curl(`${url}/restapi/script/start/`, {
      method: 'POST',
      headers: csrf,
      data: '[{"user_function":"cycle_an_outlet","source":"cycle_an_outlet(2,1)"}]',
    });

  it('is accepted by a real unit and starts the thread', async () => {
    const answer = await start(real.url);
    expect(answer.status).toBe(200);
    const id = json(answer) as string;
    expect(real.device.threads().map((thread) => thread.id)).toContain(id);
    real.device.stopScripts();
  });

  it('is refused by the fast profile, as before', async () => {
    expect((await start(fast.url)).status).toBe(400);
  });
});

describe('Basic auth', () => {
  it('is refused with a digest challenge unless plaintext logins are allowed', async () => {
    const refused = await curl(`${real.url}/restapi/config/serial/`, { auth: 'basic' });
    expect(refused.status).toBe(401);
    expect(header(refused, 'www-authenticate')).toMatch(/^DIGEST /);
    real.device.setConfig({ allowPlaintextLogins: true });
    try {
      const allowed = await curl(`${real.url}/restapi/config/serial/`, { auth: 'basic' });
      expect(json(allowed)).toBe(real.device.serial);
    } finally {
      real.device.setConfig({ allowPlaintextLogins: false });
    }
  });
});
