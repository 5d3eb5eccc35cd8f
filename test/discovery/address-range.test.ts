import { describe, expect, it } from 'vitest';
import { MAX_PROBE_ADDRESSES, parseAddressRange } from '../../src-main/discovery/address-range';
import { PlugboardError } from '../../src-main/shared/errors';

function badInput(text: string): string {
  try {
    parseAddressRange(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PlugboardError);
    expect((error as PlugboardError).code).toBe('BAD_INPUT');
    return (error as PlugboardError).message;
  }
  throw new Error(`"${text}" was accepted`);
}

describe('parseAddressRange', () => {
  it('accepts a single address or host name, with an optional port', () => {
    expect(parseAddressRange('192.168.1.20')).toEqual({ hosts: ['192.168.1.20'], port: null });
    expect(parseAddressRange(' 192.168.1.20:8080 ')).toEqual({ hosts: ['192.168.1.20'], port: 8080 });
    expect(parseAddressRange('PDU-3.lab')).toEqual({ hosts: ['pdu-3.lab'], port: null });
    expect(parseAddressRange('pdu-3.lab:81')).toEqual({ hosts: ['pdu-3.lab'], port: 81 });
  });

  it('expands a full or short range, inclusive', () => {
    const full = parseAddressRange('192.168.1.10-192.168.1.40');
    expect(full.hosts).toHaveLength(31);
    expect(full.hosts[0]).toBe('192.168.1.10');
    expect(full.hosts.at(-1)).toBe('192.168.1.40');
    expect(parseAddressRange('192.168.1.10 - 12:8080')).toEqual({
      hosts: ['192.168.1.10', '192.168.1.11', '192.168.1.12'],
      port: 8080,
    });
    expect(parseAddressRange('10.0.0.254-10.0.1.1').hosts).toEqual([
      '10.0.0.254',
      '10.0.0.255',
      '10.0.1.0',
      '10.0.1.1',
    ]);
  });

  it('expands a block without its network and broadcast addresses', () => {
    const block = parseAddressRange('192.168.1.77/24');
    expect(block.hosts).toHaveLength(254);
    expect(block.hosts[0]).toBe('192.168.1.1');
    expect(block.hosts.at(-1)).toBe('192.168.1.254');
    expect(parseAddressRange('127.0.0.0/30:9000')).toEqual({ hosts: ['127.0.0.1', '127.0.0.2'], port: 9000 });
    expect(parseAddressRange('10.1.2.3/32').hosts).toEqual(['10.1.2.3']);
    expect(parseAddressRange('10.1.2.2/31').hosts).toEqual(['10.1.2.2', '10.1.2.3']);
  });

  it(`refuses more than ${MAX_PROBE_ADDRESSES} addresses, saying how many were asked`, () => {
    expect(badInput('10.0.0.0/23')).toMatch(/covers 510 addresses; Plugboard probes at most 256 at a time/);
    expect(badInput('10.0.0.0/8')).toMatch(/covers 16,777,214 addresses/);
    expect(badInput('10.0.0.1-10.0.1.1')).toMatch(/covers 257 addresses/);
    expect(parseAddressRange('10.0.0.0-10.0.0.255').hosts).toHaveLength(256);
  });

  it.each([
    ['', /empty/],
    ['192.168.1.300', /not a valid IPv4 address/],
    ['192.168.1.40-10', /ends before it starts/],
    ['192.168.1.10-192.168.1.999', /not an IPv4 address or last number/],
    ['192.168.1.0/33', /not a valid address block/],
    ['192.168.1.5:0', /port .* must be a number from 1 to 65535/],
    ['192.168.1.5:70000', /port/],
    ['http://192.168.1.5', /Leave out the scheme/],
    ['fe80::1', /IPv6 ranges are not supported/],
    ['224.0.0.251', /not an address a controller can have/],
    ['0.0.0.0/24', /not an address a controller can have/],
    ['bench a', /not an address range/],
  ])('refuses %j with a message that says what to type', (text, reason) => {
    const message = badInput(text);
    expect(message).toMatch(reason);
    expect(message).toMatch(/Type one host \(192\.168\.1\.20\), a range/);
  });
});
