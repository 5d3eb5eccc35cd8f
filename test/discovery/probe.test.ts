import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DiscoveryProgress } from '../../src-preload/model';
import { DiscoveryService, discover } from '../../src-main/discovery/discovery-service';
import { dliRealm, recogniseController } from '../../src-main/discovery/recognise';
import { PlugboardError } from '../../src-main/shared/errors';
import {
  dliChallenge,
  hang,
  listenOnHosts,
  type Handler,
  type LoopbackHosts,
} from './fixtures/loopback-servers';
import { saved } from './fixtures/saved';

/** Probing a typed address range, on 127.0.0.x only (Linux routes all of 127/8 to loopback). */

/** A backstop for what the test waits on (connections, answers): far above what they take. */
const LOADED = { timeout: 15_000, interval: 10 };

const running: LoopbackHosts[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => h.close()));
});

async function hosts(entries: [string, Handler][]): Promise<LoopbackHosts> {
  const started = await listenOnHosts(new Map(entries));
  running.push(started);
  return started;
}

const basicChallenge: Handler = (_q, r) =>
  r.writeHead(401, { 'WWW-Authenticate': 'Basic realm="DLI LPC1"' }).end();
const apacheDigest: Handler = (_q, r) =>
  r.writeHead(401, { 'WWW-Authenticate': 'Digest realm="Restricted", nonce="abc", qop="auth"' }).end();
const bareUnauthorised: Handler = (_q, r) => r.writeHead(401).end();
const okPage: Handler = (_q, r) =>
  r.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Web Power Switch</title>');
const twoChallenges: Handler = (_q, r) => {
  r.setHeader('WWW-Authenticate', [
    'Basic realm="fallback"',
    'Digest qop="auth", realm="DLI EPCR5100045", nonce="n"',
  ]);
  r.writeHead(401).end();
};

describe('dliRealm', () => {
  it('accepts a Digest challenge (any case) whose realm is DLI <serial>', () => {
    expect(dliRealm(['DIGEST realm="DLI LPC92601002528", nonce="NZAeQHhoCNifFjFa"'])).toBe(
      'DLI LPC92601002528',
    );
    expect(dliRealm(['Digest qop="auth", realm="DLI X1"'])).toBe('DLI X1');
    expect(dliRealm(['Basic realm="DLI X1"'])).toBeNull();
    expect(dliRealm(['Digest realm="DLIX"'])).toBeNull();
    expect(dliRealm(['Digest realm="Restricted"', 'Basic realm="x"'])).toBeNull();
  });
});

describe('probing an address range', () => {
  it('recognises controllers by their challenge and nothing else', async () => {
    const servers = await hosts([
      ['127.0.0.12', dliChallenge('LPC92712030336')],
      ['127.0.0.13', basicChallenge],
      ['127.0.0.14', apacheDigest],
      ['127.0.0.15', bareUnauthorised],
      ['127.0.0.16', okPage],
      ['127.0.0.17', hang],
      ['127.0.0.18', twoChallenges],
      ['127.0.0.30', dliChallenge('LPC761333')],
    ]);
    const progress: Omit<DiscoveryProgress, 'runId'>[] = [];
    const results = await discover(
      { mdns: false, ssdp: false, range: `127.0.0.10-127.0.0.40:${servers.port}` },
      {
        // The silent address (127.0.0.17) takes all of it; the others answer in far less, however busy.
        timeoutMs: 2000,
        savedControllers: () => [saved('known', `http://127.0.0.30:${servers.port}/`)],
        onProgress: (p) => progress.push(p),
      },
    );
    const url = (host: string) => `http://${host}:${servers.port}`;
    expect(results).toEqual([
      {
        url: url('127.0.0.12'),
        host: '127.0.0.12',
        port: servers.port,
        name: null,
        serial: 'LPC92712030336',
        model: null,
        sources: ['probe'],
        savedId: null,
      },
      {
        url: url('127.0.0.18'),
        host: '127.0.0.18',
        port: servers.port,
        name: null,
        serial: 'EPCR5100045',
        model: null,
        sources: ['probe'],
        savedId: null,
      },
      {
        url: url('127.0.0.30'),
        host: '127.0.0.30',
        port: servers.port,
        name: null,
        serial: 'LPC761333',
        model: null,
        sources: ['probe'],
        savedId: 'known',
      },
    ]);
    // Every address was asked exactly once, including the ones nobody listens on.
    for (const host of ['127.0.0.12', '127.0.0.13', '127.0.0.16', '127.0.0.17', '127.0.0.30'])
      expect(servers.connections.get(host)).toBe(1);
    expect(progress[0]).toMatchObject({ probed: 0, total: 31, done: false, results: [] });
    expect(progress.at(-1)).toMatchObject({ probed: 31, total: 31, done: true, error: null });
    const probedCounts = progress.map((p) => p.probed);
    expect(probedCounts).toEqual([...probedCounts].sort((a, b) => a - b));
    expect(new Set(probedCounts).size).toBe(32);
  });

  it('asks at most `concurrency` addresses at once', async () => {
    // Each address answers only when the test lets it (then as a web page, not a controller). Whenever
    // one is asked, at most three may be waiting for their answer.
    const waiting: (() => void)[] = [];
    const answered = { count: 0 };
    const overlaps: number[] = [];
    const held: Handler = (_request, response) => {
      overlaps.push(waiting.length + 1);
      waiting.push(() => {
        answered.count++;
        okPage(_request, response);
      });
    };
    const entries: [string, Handler][] = Array.from({ length: 12 }, (_, i) => [`127.0.0.${50 + i}`, held]);
    const servers = await hosts(entries);
    const run = discover(
      { mdns: false, ssdp: false, range: `127.0.0.50-61:${servers.port}` },
      { timeoutMs: 30_000, probeConcurrency: 3 },
    );
    // Release one answer at a time, each once three requests wait (or the last few).
    for (let released = 0; released < 12; released++) {
      await vi.waitFor(() => expect(waiting.length).toBe(Math.min(3, 12 - released)), LOADED);
      waiting.shift()!();
    }
    expect(await run).toEqual([]);
    expect(overlaps).toHaveLength(12);
    expect(Math.max(...overlaps)).toBe(3);
    expect([...servers.connections.values()].reduce((a, b) => a + b, 0)).toBe(12);
    expect(answered.count).toBe(12);
  });

  it('stops when cancelled: no new addresses are asked, and the last report says done', async () => {
    const entries: [string, Handler][] = Array.from({ length: 20 }, (_, i) => [`127.0.0.${100 + i}`, hang]);
    const servers = await hosts(entries);
    const abort = new AbortController();
    const progress: Omit<DiscoveryProgress, 'runId'>[] = [];
    const run = discover(
      { mdns: false, ssdp: false, range: `127.0.0.100-119:${servers.port}` },
      { timeoutMs: 10_000, probeConcurrency: 2, signal: abort.signal, onProgress: (p) => progress.push(p) },
    );
    await expect.poll(() => servers.maxOpen(), LOADED).toBe(2);
    abort.abort();
    await run;
    const asked = [...servers.connections.values()].reduce((a, b) => a + b, 0);
    expect(asked).toBe(2);
    expect(progress.at(-1)).toMatchObject({ done: true, total: 20 });
    expect(progress.at(-1)!.probed).toBeLessThan(20);
    await expect.poll(() => servers.open(), LOADED).toBe(0);
  });

  it('recognises a controller that only talks HTTPS (self-signed)', async () => {
    const pems = await generate([{ name: 'commonName', value: 'dli' }], {
      keySize: 2048,
      algorithm: 'sha256',
    });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, dliChallenge('LPC9TLS'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      expect(await recogniseController(`https://127.0.0.1:${port}`, { timeoutMs: 2000 })).toEqual({
        realm: 'DLI LPC9TLS',
        serial: 'LPC9TLS',
      });
      // Plain HTTP to the TLS port is not a controller.
      expect(await recogniseController(`http://127.0.0.1:${port}`, { timeoutMs: 2000 })).toBeNull();
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('refuses bad requests before sending anything', async () => {
    await expect(discover({ mdns: false, ssdp: false, range: '10.0.0.0/16' })).rejects.toThrow(
      /covers 65,534 addresses/,
    );
    await expect(discover({ mdns: false, ssdp: false })).rejects.toThrow(/Choose at least one way to search/);
    await expect(discover({ mdns: false, ssdp: false, range: '   ' })).rejects.toBeInstanceOf(PlugboardError);
  });
});

describe('DiscoveryService', () => {
  it('runs in the background with a run id on every report, and stops on request', async () => {
    const entries: [string, Handler][] = [
      ['127.0.0.70', dliChallenge('LPC1')],
      ...Array.from({ length: 8 }, (_, i): [string, Handler] => [`127.0.0.${71 + i}`, hang]),
    ];
    const servers = await hosts(entries);
    const events: DiscoveryProgress[] = [];
    const service = new DiscoveryService({
      onProgress: (p) => events.push(p),
      timeoutMs: 10_000,
      probeConcurrency: 2,
    });
    const { runId } = service.start({ mdns: false, ssdp: false, range: `127.0.0.70-78:${servers.port}` });
    expect(runId).toMatch(/^d[0-9a-f]{12}$/);
    await expect.poll(() => events.some((e) => e.results.length === 1), LOADED).toBe(true);
    const finished = service.finished(runId)!;
    expect(service.stop(runId)).toBe(true);
    const results = await finished;
    expect(results.map((r) => r.serial)).toEqual(['LPC1']);
    expect(events.every((e) => e.runId === runId)).toBe(true);
    expect(events.at(-1)).toMatchObject({ done: true, total: 9 });
    expect(service.stop(runId)).toBe(false);
    expect(service.finished(runId)).toBeNull();
  });

  it('starting a new run stops the previous one', async () => {
    const servers = await hosts(
      Array.from({ length: 4 }, (_, i): [string, Handler] => [`127.0.0.${90 + i}`, hang]),
    );
    const events: DiscoveryProgress[] = [];
    const service = new DiscoveryService({
      onProgress: (p) => events.push(p),
      timeoutMs: 10_000,
      probeConcurrency: 1,
    });
    const first = service.start({ mdns: false, ssdp: false, range: `127.0.0.90-91:${servers.port}` });
    const firstDone = service.finished(first.runId)!;
    const second = service.start({ mdns: false, ssdp: false, range: `127.0.0.92-93:${servers.port}` });
    await firstDone;
    expect(events.filter((e) => e.runId === first.runId).at(-1)).toMatchObject({ done: true });
    expect(service.finished(second.runId)).not.toBeNull();
    await service.dispose();
    expect(events.filter((e) => e.runId === second.runId).at(-1)).toMatchObject({ done: true });
  });

  it('rejects a bad range synchronously, with no run started', () => {
    const service = new DiscoveryService({ onProgress: () => undefined });
    expect(() => service.start({ mdns: false, ssdp: false, range: '10.0.0.0/20' })).toThrow(PlugboardError);
  });
});
