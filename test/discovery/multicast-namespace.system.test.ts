import { describe, expect, it } from 'vitest';
import type { ControllerSummary, DiscoveredController, DiscoveryProgress } from '../../src-preload/model';
import type { EmulatorOptions } from '../../src-main/emulator';
import type { FakeServer } from './fixtures/mdns-publisher';
import { runInNamespace } from './fixtures/namespace';
import type { ResponderConfig } from './fixtures/wemo-responder';
import { saved } from './fixtures/saved';

/**
 * mDNS and SSDP for real: publishers, responders and the browser are separate processes inside a
 * private network namespace (see fixtures/namespace.ts); no packet can leave it. The namespace has
 * its own port space, so fixed ports (even 80) cannot collide with anything.
 */

interface RunResult {
  results: DiscoveredController[];
  progress: Omit<DiscoveryProgress, 'runId'>[];
}

const benchA = { name: 'Bench A', model: 'LPC9', serial: 'LPC92712030336' };
const rack7 = { name: 'Rack 7', model: 'EPCR6', serial: 'EPCR5100045' };

async function discoverIn(options: {
  setup?: string[];
  servers?: FakeServer[];
  emulators?: EmulatorOptions[];
  wemo?: ResponderConfig;
  request: object;
  saved?: ControllerSummary[];
}): Promise<RunResult> {
  const services = [
    ...(options.servers ? [{ file: 'mdns-publisher.ts', arg: options.servers }] : []),
    ...(options.emulators ? [{ file: 'emulator-mdns.ts', arg: options.emulators }] : []),
    ...(options.wemo ? [{ file: 'wemo-responder.ts', arg: options.wemo }] : []),
  ];
  const run = await runInNamespace({
    setup: options.setup,
    services,
    main: {
      file: 'run-discovery.ts',
      arg: { request: options.request, listenMs: 3500, saved: options.saved },
    },
  });
  return run.result as RunResult;
}

// Each case has its own namespace (own ports, own multicast), so they can run side by side.
describe.concurrent('discovery over multicast in a private network namespace', () => {
  it('mDNS: keeps only services that answer with a DLI challenge; falls back to the packet source for the address', async () => {
    const { results, progress } = await discoverIn({
      servers: [
        {
          host: '127.0.0.1',
          serves: { dliSerial: 'LPC761333' },
          publish: { name: 'Bench mDNS', txt: { model: 'LPC7' } },
        },
        { host: '127.0.0.1', serves: 'plain', publish: { name: 'Lab printer' } },
      ],
      request: { mdns: true, ssdp: false },
    });
    // bonjour-service announces no A record for loopback, so the address is the answer's source.
    expect(results).toEqual([
      {
        url: `http://127.0.0.1:${results[0]?.port}`,
        host: '127.0.0.1',
        port: results[0]?.port,
        name: 'Bench mDNS',
        serial: 'LPC761333',
        model: 'LPC7',
        sources: ['mdns'],
        savedId: null,
      },
    ]);
    expect(progress.at(-1)).toMatchObject({ done: true, error: null, probed: 0, total: 0 });
    expect(progress.filter((p) => p.done)).toHaveLength(1);
  });

  it('mDNS: finds controllers at an announced non-loopback address, and verifies _https._tcp services over TLS', async () => {
    const { results } = await discoverIn({
      // A veth pair (both ends in the namespace) gives the publisher a non-loopback address to announce (A record).
      setup: [
        'ip link add pb0 type veth peer name pb1',
        'ip addr add 10.99.0.2/24 dev pb0',
        'ip link set pb0 up',
        'ip link set pb1 up',
      ],
      servers: [
        {
          host: '10.99.0.2',
          port: 8080,
          serves: { dliSerial: 'LPC92601002528' },
          publish: { name: 'Rack mDNS' },
        },
        {
          host: '10.99.0.2',
          port: 8443,
          tls: true,
          serves: { dliSerial: 'EPCR5100045' },
          publish: { name: 'Secure unit' },
        },
        { host: '10.99.0.2', port: 8081, serves: 'plain', publish: { name: 'NAS' } },
      ],
      request: { mdns: true, ssdp: false },
      saved: [saved('c-rack', 'http://10.99.0.2:8080')],
    });
    expect(results).toEqual([
      {
        url: 'http://10.99.0.2:8080',
        host: '10.99.0.2',
        port: 8080,
        name: 'Rack mDNS',
        serial: 'LPC92601002528',
        model: null,
        sources: ['mdns'],
        savedId: 'c-rack',
      },
      {
        url: 'https://10.99.0.2:8443',
        host: '10.99.0.2',
        port: 8443,
        name: 'Secure unit',
        serial: 'EPCR5100045',
        model: null,
        sources: ['mdns'],
        savedId: null,
      },
    ]);
  });

  it('mDNS: finds emulated controllers announcing themselves (name, serial and model from TXT)', async () => {
    const { results } = await discoverIn({
      emulators: [
        { host: '127.0.0.1', port: 8080, name: 'Emulated bench', serial: 'LPC92712030336', model: 'LPC9' },
        {
          host: '127.0.0.1',
          port: 8443,
          tls: true,
          name: 'Emulated TLS',
          serial: 'EPCR5100045',
          model: 'EPCR6',
        },
      ],
      request: { mdns: true, ssdp: false },
    });
    expect(results).toEqual([
      {
        url: 'http://127.0.0.1:8080',
        host: '127.0.0.1',
        port: 8080,
        name: 'Emulated bench',
        serial: 'LPC92712030336',
        model: 'LPC9',
        sources: ['mdns'],
        savedId: null,
      },
      {
        url: 'https://127.0.0.1:8443',
        host: '127.0.0.1',
        port: 8443,
        name: 'Emulated TLS',
        serial: 'EPCR5100045',
        model: 'EPCR6',
        sources: ['mdns'],
        savedId: null,
      },
    ]);
  });

  it('SSDP: groups the per-outlet WeMo devices back into their controllers and ignores the rest', async () => {
    const { results, progress } = await discoverIn({
      wemo: {
        devices: [
          {
            answerFrom: '127.0.0.2',
            serveOn: '127.0.0.2',
            controller: benchA,
            outletName: 'Router',
            position: 0,
          },
          {
            answerFrom: '127.0.0.2',
            serveOn: '127.0.0.2',
            controller: benchA,
            outletName: 'Scope',
            position: 1,
          },
          {
            answerFrom: '127.0.0.2',
            serveOn: '127.0.0.2',
            controller: benchA,
            outletName: 'DUT',
            position: 5,
          },
          {
            answerFrom: '127.0.0.3',
            serveOn: '127.0.0.3',
            controller: rack7,
            outletName: 'Outlet 1',
            position: 0,
          },
          {
            answerFrom: '127.0.0.3',
            serveOn: '127.0.0.3',
            controller: rack7,
            outletName: 'Outlet 2',
            position: 1,
          },
          // A real Belkin socket: no X_dli, not a controller.
          {
            answerFrom: '127.0.0.4',
            serveOn: '127.0.0.4',
            controller: null,
            outletName: 'Lamp',
            position: 0,
          },
          // An answer pointing at another host's description is not followed.
          {
            answerFrom: '127.0.0.5',
            serveOn: '127.0.0.6',
            controller: { name: 'Spoofed', model: 'X', serial: 'SPOOF' },
            outletName: 'X',
            position: 0,
          },
        ],
      },
      request: { mdns: false, ssdp: true },
      saved: [saved('c-bench', 'http://127.0.0.2/')],
    });
    expect(results).toEqual([
      {
        url: 'http://127.0.0.2',
        host: '127.0.0.2',
        port: 80,
        name: 'Bench A',
        serial: 'LPC92712030336',
        model: 'LPC9',
        sources: ['ssdp'],
        savedId: 'c-bench',
      },
      {
        url: 'http://127.0.0.3',
        host: '127.0.0.3',
        port: 80,
        name: 'Rack 7',
        serial: 'EPCR5100045',
        model: 'EPCR6',
        sources: ['ssdp'],
        savedId: null,
      },
    ]);
    expect(progress.at(-1)).toMatchObject({ done: true, error: null });
  });

  it('merges all three sources by host and port', async () => {
    const { results, progress } = await discoverIn({
      servers: [
        { host: '127.0.0.1', port: 80, serves: { dliSerial: 'LPC761333' }, publish: { name: 'Bench mDNS' } },
        { host: '127.0.0.2', port: 80, serves: { dliSerial: 'LPC92712030336' } },
      ],
      wemo: {
        devices: [
          {
            answerFrom: '127.0.0.2',
            serveOn: '127.0.0.2',
            controller: benchA,
            outletName: 'Router',
            position: 0,
          },
        ],
      },
      request: { mdns: true, ssdp: true, range: '127.0.0.1-3' },
    });
    expect(results).toEqual([
      {
        url: 'http://127.0.0.1',
        host: '127.0.0.1',
        port: 80,
        name: 'Bench mDNS',
        serial: 'LPC761333',
        model: null,
        sources: ['mdns', 'probe'],
        savedId: null,
      },
      {
        url: 'http://127.0.0.2',
        host: '127.0.0.2',
        port: 80,
        name: 'Bench A',
        serial: 'LPC92712030336',
        model: 'LPC9',
        sources: ['ssdp', 'probe'],
        savedId: null,
      },
    ]);
    expect(progress.at(-1)).toMatchObject({ done: true, probed: 3, total: 3, error: null });
  });
});
