import { PlugboardError } from '../shared/errors';

/** The most addresses one probe may touch: a /24. Anything larger is a scan, not a search. */
export const MAX_PROBE_ADDRESSES = 256;

export interface AddressRange {
  /** IPv4 addresses (or one host name) to probe, in order. */
  hosts: string[];
  /** The port typed after the range; null = the HTTP default (80). */
  port: number | null;
}

const EXAMPLES =
  'Type one host (192.168.1.20), a range (192.168.1.10-192.168.1.40 or 192.168.1.10-40) or a block (192.168.1.0/24), optionally with :port.';

function bad(message: string): PlugboardError {
  return new PlugboardError('BAD_INPUT', `${message} ${EXAMPLES}`);
}

function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function expand(first: number, last: number, typed: string): string[] {
  const count = last - first + 1;
  if (count > MAX_PROBE_ADDRESSES) {
    throw bad(
      `"${typed}" covers ${count.toLocaleString('en')} addresses; Plugboard probes at most ${MAX_PROBE_ADDRESSES} at a time.`,
    );
  }
  return Array.from({ length: count }, (_, i) => formatIpv4(first + i));
}

function checkUsable(value: number, typed: string): void {
  const firstOctet = Math.floor(value / 2 ** 24);
  if (firstOctet === 0 || firstOctet >= 224) throw bad(`"${typed}" is not an address a controller can have.`);
}

/** Split off an optional `:port` at the end (IPv4 forms and host names only). */
function splitPort(text: string): { body: string; port: number | null } {
  const match = /^(.*):(\d*)$/.exec(text);
  if (!match) return { body: text, port: null };
  const port = Number(match[2]);
  if (!match[2] || !Number.isInteger(port) || port < 1 || port > 65535)
    throw bad(`The port in "${text}" must be a number from 1 to 65535.`);
  return { body: match[1]!, port };
}

/**
 * What the person typed in "Search an address range": one host, `a.b.c.d-a.b.c.e`, `a.b.c.d-e`, or
 * `a.b.c.d/nn`, each with an optional `:port`. At most {@link MAX_PROBE_ADDRESSES} addresses; the
 * network and broadcast addresses of a block are skipped.
 */
export function parseAddressRange(input: string): AddressRange {
  const typed = input.trim().replace(/\s*-\s*/, '-');
  if (!typed) throw bad('The address range is empty.');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(typed)) throw bad(`Leave out the scheme in "${typed}".`);
  if (typed.includes('[') || typed.split(':').length > 2)
    throw bad(`IPv6 ranges are not supported ("${typed}").`);
  const { body, port } = splitPort(typed);

  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(body);
  if (cidr) {
    const base = parseIpv4(cidr[1]!);
    const bits = Number(cidr[2]);
    if (base === null || bits > 32) throw bad(`"${body}" is not a valid address block.`);
    const size = 2 ** (32 - bits);
    const network = Math.floor(base / size) * size;
    checkUsable(network, body);
    const hosts =
      size <= 2 ? expand(network, network + size - 1, body) : expand(network + 1, network + size - 2, body);
    return { hosts, port };
  }

  const range = /^([\d.]+)-([\d.]+)$/.exec(body);
  if (range) {
    const first = parseIpv4(range[1]!);
    if (first === null) throw bad(`"${range[1]}" is not an IPv4 address.`);
    const lastText = range[2]!;
    const last = /^\d{1,3}$/.test(lastText)
      ? parseIpv4(`${formatIpv4(first).split('.').slice(0, 3).join('.')}.${lastText}`)
      : parseIpv4(lastText);
    if (last === null) throw bad(`"${lastText}" is not an IPv4 address or last number.`);
    if (last < first) throw bad(`The range "${body}" ends before it starts.`);
    checkUsable(first, body);
    checkUsable(last, body);
    return { hosts: expand(first, last, body), port };
  }

  const single = parseIpv4(body);
  if (single !== null) {
    checkUsable(single, body);
    return { hosts: [formatIpv4(single)], port };
  }
  if (/^[\d.]+$/.test(body)) throw bad(`"${body}" is not a valid IPv4 address.`);
  if (
    /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i.test(body)
  ) {
    return { hosts: [body.toLowerCase()], port };
  }
  throw bad(`"${typed}" is not an address range.`);
}
