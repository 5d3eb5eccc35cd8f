import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json, python } from './clients';

let emu: RunningEmulator;
let api: string;

beforeAll(async () => {
  emu = await startEmulator({ cycleDelay: 0.3, sequenceDelay: 0.05 });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

describe('fault hooks', () => {
  it('drop: the connection closes without an answer, once', async () => {
    emu.device.faults.add({ kind: 'drop', times: 1 });
    const dropped = await curl(`${api}/relay/name/`, { auth: 'none' });
    expect(dropped.exitCode).toBe(52);
    expect((await curl(`${api}/relay/name/`)).status).toBe(200);
  });

  it('hang: no answer until the fault is cleared', async () => {
    emu.device.faults.add({ kind: 'hang', path: 'relay/outlets/' });
    const hung = curl(`${api}/relay/outlets/0/state/`, { auth: 'none', maxTime: 30 });
    // Other paths still answer.
    expect((await curl(`${api}/relay/name/`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(emu.device.stats.inFlight).toBeGreaterThanOrEqual(1);
    emu.device.faults.clear();
    const answer = await hung;
    expect(answer.exitCode).not.toBe(0);
    expect(answer.status).toBe(0);
    expect((await curl(`${api}/relay/outlets/0/state/`)).status).toBe(200);
  });

  it('hang: a client timeout fires', async () => {
    emu.device.faults.add({ kind: 'hang', times: 1 });
    const answer = await curl(`${api}/relay/name/`, { auth: 'none', maxTime: 1 });
    expect(answer.exitCode).toBe(28);
    emu.device.faults.clear();
  });

  it('error500: an authenticated request gets 500 with a JSON body', async () => {
    emu.device.faults.add({ kind: 'error500', times: 1 });
    const answer = await curl(`${api}/relay/outlets/0/state/`);
    expect(answer.status).toBe(500);
    expect(json(answer)).toMatchObject({ error: 'internal' });
    expect((await curl(`${api}/relay/outlets/0/state/`)).status).toBe(200);
  });

  it('malformedJson: 200 with a body no JSON parser accepts', async () => {
    emu.device.faults.add({ kind: 'malformedJson', times: 1, method: 'GET' });
    const [answer] = await python({ base: emu.url, requests: [{ path: '/restapi/relay/outlets/' }] });
    expect(answer?.status).toBe(200);
    expect(() => JSON.parse(answer!.body)).toThrow();
  });

  it('offline and back: connections are refused, then the same port answers again', async () => {
    await emu.device.goOffline();
    expect(emu.device.offline).toBe(true);
    expect((await curl(`${api}/relay/name/`, { maxTime: 5 })).exitCode).toBe(7);
    await emu.device.comeBack();
    expect((await curl(`${api}/relay/name/`)).status).toBe(200);
  });

  it('latency: every answer waits at least the configured time', async () => {
    emu.device.latency = 400;
    const started = Date.now();
    expect((await curl(`${api}/relay/name/`, { auth: 'none' })).status).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    emu.device.latency = 0;
  });
});

describe('request statistics', () => {
  it('counts requests, 401 answers and requests in flight, and keeps a bounded log without credentials', async () => {
    emu.device.stats.reset();
    await curl(`${api}/relay/outlets/0/state/`);
    await curl(`${api}/relay/outlets/0/state/`, { password: 'wrong' });
    const { stats } = emu.device;
    // curl --digest: a 401 then the real request; the wrong password: two 401s.
    expect(stats.requests).toBe(4);
    expect(stats.unauthorized).toBe(3);
    expect(stats.byStatus[200]).toBe(1);
    expect(stats.log.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ['GET', '/restapi/relay/outlets/0/state/', 401],
      ['GET', '/restapi/relay/outlets/0/state/', 200],
      ['GET', '/restapi/relay/outlets/0/state/', 401],
      ['GET', '/restapi/relay/outlets/0/state/', 401],
    ]);
    expect(JSON.stringify(stats.log)).not.toMatch(/1234|Digest|response=/i);
    expect(stats.maxInFlight).toBeGreaterThanOrEqual(1);
    stats.reset();
    expect([stats.requests, stats.unauthorized, stats.log.length]).toEqual([0, 0, 0]);
  });

  it('sees several requests in flight when many clients ask at once', async () => {
    emu.device.stats.reset();
    emu.device.latency = 200;
    await Promise.all(Array.from({ length: 6 }, () => curl(`${api}/relay/name/`)));
    emu.device.latency = 0;
    expect(emu.device.stats.maxInFlight).toBeGreaterThan(1);
    expect(emu.device.stats.requests).toBe(12);
  });
});

describe('HTTPS', () => {
  let tls: RunningEmulator;
  let dir: string;

  beforeAll(async () => {
    tls = await startEmulator({ tls: true });
    dir = mkdtempSync(join(tmpdir(), 'plugboard-emulator-tls-'));
  });
  afterAll(async () => {
    await tls.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves https with a self-signed certificate that verifies for 127.0.0.1 once trusted', async () => {
    expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cert = tls.device.certificate!;
    expect(cert.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const file = join(dir, 'first.pem');
    writeFileSync(file, cert.pem);
    const untrusted = await curl(`${tls.url}/restapi/relay/name/`);
    expect(untrusted.exitCode).toBe(60);
    const trusted = await curl(`${tls.url}/restapi/relay/name/`, { cacert: file });
    expect(trusted.status).toBe(200);
    const [py] = await python({
      base: tls.url,
      cafile: file,
      requests: [{ path: '/restapi/config/serial/' }],
    });
    expect(py?.status).toBe(200);
  });

  it('changes its certificate on request: the old pin fails, the new one works', async () => {
    const oldFile = join(dir, 'old.pem');
    writeFileSync(oldFile, tls.device.certificate!.pem);
    const before = tls.device.certificate!.fingerprint256;
    const after = await tls.device.changeCertificate();
    expect(after).not.toBe(before);
    expect((await curl(`${tls.url}/restapi/relay/name/`, { cacert: oldFile })).exitCode).toBe(60);
    const newFile = join(dir, 'new.pem');
    writeFileSync(newFile, tls.device.certificate!.pem);
    expect((await curl(`${tls.url}/restapi/relay/name/`, { cacert: newFile })).status).toBe(200);
  });
});
