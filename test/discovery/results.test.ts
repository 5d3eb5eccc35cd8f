import { describe, expect, it } from 'vitest';
import { DiscoveryResults, baseUrl, type Sighting } from '../../src-main/discovery/results';
import { serviceHost } from '../../src-main/discovery/mdns';
import { saved } from './fixtures/saved';

const sighting = (extra: Partial<Sighting>): Sighting => ({
  url: 'http://10.0.0.5',
  host: '10.0.0.5',
  port: 80,
  name: null,
  serial: null,
  model: null,
  source: 'probe',
  ...extra,
});

describe('DiscoveryResults', () => {
  it('merges sightings of one host:port from several sources, keeping the first known facts', () => {
    const results = new DiscoveryResults();
    expect(results.add(sighting({ serial: 'LPC1' }))).toBe(true);
    expect(results.add(sighting({ source: 'ssdp', name: 'Bench A', model: 'LPC9', serial: 'OTHER' }))).toBe(
      true,
    );
    expect(results.add(sighting({ source: 'ssdp', name: 'Bench A' }))).toBe(false);
    expect(results.add(sighting({ source: 'mdns', name: 'ignored' }))).toBe(true);
    expect(results.list()).toEqual([
      {
        url: 'http://10.0.0.5',
        host: '10.0.0.5',
        port: 80,
        name: 'Bench A',
        serial: 'LPC1',
        model: 'LPC9',
        sources: ['mdns', 'ssdp', 'probe'],
        savedId: null,
      },
    ]);
  });

  it('keeps different ports apart and prefers an https address', () => {
    const results = new DiscoveryResults();
    results.add(sighting({ port: 8080, url: 'http://10.0.0.5:8080' }));
    results.add(sighting({}));
    results.add(sighting({ source: 'mdns', port: 8080, url: 'https://10.0.0.5:8080' }));
    expect(results.list().map((r) => r.url)).toEqual(['http://10.0.0.5', 'https://10.0.0.5:8080']);
    expect(results.size).toBe(2);
  });

  it('sorts IPv4 addresses numerically, then names', () => {
    const results = new DiscoveryResults();
    for (const host of ['pdu.lab', '10.0.0.20', '10.0.0.3', '9.1.1.1'])
      results.add(sighting({ host, url: `http://${host}` }));
    expect(results.list().map((r) => r.host)).toEqual(['9.1.1.1', '10.0.0.3', '10.0.0.20', 'pdu.lab']);
  });

  it('marks findings already saved, whatever form the saved address has', () => {
    const results = new DiscoveryResults();
    results.add(sighting({}));
    results.add(sighting({ host: '10.0.0.6', url: 'https://10.0.0.6', port: 443 }));
    results.add(sighting({ host: '10.0.0.7', url: 'http://10.0.0.7:8080', port: 8080 }));
    const list = results.list([
      saved('a', 'http://10.0.0.5:80/'),
      saved('b', 'https://10.0.0.6'),
      saved('c', 'http://10.0.0.7'),
    ]);
    expect(list.map((r) => r.savedId)).toEqual(['a', 'b', null]);
  });
});

describe('baseUrl', () => {
  it('omits default ports and brackets IPv6', () => {
    expect(baseUrl('10.0.0.5', 80)).toBe('http://10.0.0.5');
    expect(baseUrl('10.0.0.5', 443)).toBe('https://10.0.0.5');
    expect(baseUrl('10.0.0.5', 8443, true)).toBe('https://10.0.0.5:8443');
    expect(baseUrl('fe80::1', 8080)).toBe('http://[fe80::1]:8080');
  });
});

describe('serviceHost (mDNS address choice)', () => {
  const referer = { address: '192.168.7.9', family: 'IPv4' as const, port: 5353, size: 100 };
  it('prefers an announced IPv4 address, then a routable IPv6 one, then the answer’s source', () => {
    expect(serviceHost({ addresses: ['fe80::1', '10.0.0.5'], referer })).toBe('10.0.0.5');
    expect(serviceHost({ addresses: ['fe80::1', '2001:db8::5'], referer })).toBe('2001:db8::5');
    expect(serviceHost({ addresses: ['fe80::1'], referer })).toBe('192.168.7.9');
    expect(serviceHost({ addresses: [], referer })).toBe('192.168.7.9');
    expect(serviceHost({ addresses: ['not-an-ip'], referer: undefined })).toBeNull();
  });
});
