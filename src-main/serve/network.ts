/**
 * Who may reach a listener, and from where: loopback by default; a lab network only with an allowlist
 * of client networks or tokens (options.ts refuses anything else). Shared by every listener of
 * `plugboard serve` (the JSON API here, the pdudaemon listener too).
 */
import { BlockList, isIP } from 'node:net';
import type { Server } from 'node:http';

export interface ClientNetworks {
  /** The `--allow` networks as given, for messages. */
  given: string[];
  list: BlockList;
}

/** Parse `--allow 10.0.0.0/8,192.168.1.7`: an error sentence for the first bad entry. */
export function parseAllow(text: string): ClientNetworks | string {
  const list = new BlockList();
  const given: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    if (!family || extra !== undefined)
      return `--allow: ${JSON.stringify(entry)} is not a network: give an address or CIDR like 192.168.10.0/24 or 2001:db8::/32.`;
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!/^\d+$/.test(bits ?? String(max)) || prefix > max)
      return `--allow: the prefix of ${JSON.stringify(entry)} must be a whole number from 0 to ${max}.`;
    if (prefix === 0)
      return `--allow ${entry} would let every ${family === 4 ? 'IPv4' : 'IPv6'} address reach the listeners (and pdudaemon, which has no login, switch power): give the lab's own networks instead, like 192.168.10.0/24.`;
    list.addSubnet(address!, prefix, family === 4 ? 'ipv4' : 'ipv6');
    given.push(entry);
  }
  if (given.length === 0) return '--allow needs at least one network, like 192.168.10.0/24.';
  return { given, list };
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
export function plainAddress(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

export function isLoopback(address: string): boolean {
  const plain = plainAddress(address);
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/** Whether a client at `remote` may connect: loopback always, else only from an allowed network. */
export function clientAllowed(remote: string | undefined, allow: ClientNetworks | null): boolean {
  if (!remote) return false;
  const plain = plainAddress(remote);
  if (isLoopback(plain)) return true;
  if (!allow) return false;
  return allow.list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * DNS rebinding: a web page on evil.example whose name later resolves to this listener makes the
 * browser send `Host: evil.example`. A request is answered only when its Host is an IP address, the
 * word `localhost`, or a name the operator gave with `--host-name`.
 */
export function hostAllowed(host: string | undefined, names: readonly string[]): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  if (isIP(name)) return true;
  const lower = name.toLowerCase();
  return lower === 'localhost' || names.some((n) => n.toLowerCase() === lower);
}

/** Server-side limits every HTTP listener gets: slow or idle clients cannot hold it open. */
export const SERVER_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxConnections: 256,
  maxHeadersCount: 64,
} as const;

export function applyServerLimits(server: Server): void {
  server.headersTimeout = SERVER_LIMITS.headersTimeout;
  server.requestTimeout = SERVER_LIMITS.requestTimeout;
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeout;
  server.maxConnections = SERVER_LIMITS.maxConnections;
  server.maxHeadersCount = SERVER_LIMITS.maxHeadersCount;
}
