/**
 * Who may reach a listener, and from where: loopback by default; a lab network only with an allowlist
 * of client networks or tokens (options.ts refuses anything else). Shared by every listener of
 * `plugboard serve` (the JSON API here, the pdudaemon listener too).
 */
import { BlockList, isIP } from 'node:net';
import type { Server } from 'node:http';
import type { Scope } from '../../src-preload/model';
import type { ConnectionLimits } from '../web/connection-guard';
import { parseGrant, type Grant } from './grants';

export interface ClientNetworks {
  /** The `--allow` networks as given, for messages. */
  given: string[];
  list: BlockList;
  /**
   * The named ones (`ci=10.20.0.0/16[operator tags=farm]`): pdudaemon's clients from there act as that
   * client, with its role and scope (allowed-clients.ts). A plain network's clients switch as operators
   * everywhere, each named by its address, as before names.
   */
  clients: AllowedClient[];
}

export interface AllowedClient extends Grant {
  name: string;
  /** Its network as given. */
  network: string;
  list: BlockList;
  /** The prefix length: the most specific network names a client. */
  prefix: number;
  /** The written scope with its controllers found (resolveAllowScopes), once they are known. */
  scope?: Scope;
}

const NAMED = /^([A-Za-z0-9._-]{1,64})=([^[\]]+?)(?:\[([^\]]*)\])?$/;

/**
 * Parse `--allow 10.0.0.0/8,192.168.1.7` and named entries `ci=10.20.0.0/16[operator tags=a,b]`
 * (a scope's commas are inside its brackets): an error sentence for the first bad entry.
 */
export function parseAllow(text: string): ClientNetworks | string {
  const list = new BlockList();
  const given: string[] = [];
  const clients: AllowedClient[] = [];
  for (const raw of text.split(/,(?![^[]*\])/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const named = NAMED.exec(entry);
    const network = parseNetwork(named ? named[2]!.trim() : entry);
    if (typeof network === 'string') return network;
    list.addSubnet(network.address, network.prefix, network.type);
    given.push(network.given);
    if (!named) continue;
    const name = named[1]!;
    if (named[3] === undefined)
      return `--allow ${entry.slice(0, 80)}: give the client's role in brackets after its network, like ${name}=${network.given}[operator] or ${name}=${network.given}[operator tags=farm].`;
    const grant = parseGrant(
      named[3],
      `--allow ${name}=${network.given}`,
      name,
      `${name}=${network.given}[operator tags=farm]`,
    );
    if (typeof grant === 'string') return grant;
    if (clients.some((c) => c.name === name))
      return `--allow: the name "${name}" is given twice: give each client one network (the most specific network names a client).`;
    const own = new BlockList();
    own.addSubnet(network.address, network.prefix, network.type);
    clients.push({ ...grant, name, network: network.given, list: own, prefix: network.prefix });
  }
  if (given.length === 0) return '--allow needs at least one network, like 192.168.10.0/24.';
  return { given, list, clients };
}

/** One network: an address or CIDR. */
function parseNetwork(
  entry: string,
): { given: string; address: string; prefix: number; type: 'ipv4' | 'ipv6' } | string {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined)
    return `--allow: ${JSON.stringify(entry)} is not a network: give an address or CIDR like 192.168.10.0/24 or 2001:db8::/32 (or name a client: ci=10.20.0.0/16[operator tags=farm]).`;
  const max = family === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!/^\d+$/.test(bits ?? String(max)) || prefix > max)
    return `--allow: the prefix of ${JSON.stringify(entry)} must be a whole number from 0 to ${max}.`;
  if (prefix === 0)
    return `--allow ${entry} would let every ${family === 4 ? 'IPv4' : 'IPv6'} address reach the listeners (and pdudaemon, which has no login, switch power): give the lab's own networks instead, like 192.168.10.0/24.`;
  return { given: entry, address: address!, prefix, type: family === 4 ? 'ipv4' : 'ipv6' };
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

/**
 * Node's own limits on every HTTP listener that listens itself (the JSON API). The connection guard
 * (web/connection-guard.ts) sets the deadline to a complete request and the caps; Node's timers add the
 * time to receive a request's body, and are checked every second rather than every 30 s (Node's default).
 */
export const SERVER_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  maxHeadersCount: 64,
} as const;

/**
 * Each listener's caps and deadline. A client sends its request as soon as it connects, so 10 s from
 * connect to a complete request is generous even on a slow lab link, and a slow or idle client holds a
 * place for no longer. Per address: a test-farm dispatcher switches many boards at once from one
 * address, and a pdudaemon request may hold its connection through a delay of up to 5 minutes or a
 * `wait=1`, so 128; a CI host's jobs and a Prometheus scrape on the JSON API, 64. In all, 512 and 256:
 * a few addresses cannot take every place, and with the web window's 128 (web/server.ts) the service
 * holds under 1,000 client connections, whatever its file descriptor limit (Node raises its soft limit
 * to the hard one; systemd's default is 524,288).
 */
export const CONNECTION_LIMITS = {
  api: { maxConnections: 256, maxPerAddress: 64, requestDeadlineMs: 10_000 },
  pdudaemon: { maxConnections: 512, maxPerAddress: 128, requestDeadlineMs: 10_000 },
} as const satisfies Record<string, ConnectionLimits>;

/** The limits a server takes only when it is made (with `SERVER_LIMITS` as the rest). */
export const SERVER_OPTIONS = {
  connectionsCheckingInterval: SERVER_LIMITS.connectionsCheckingInterval,
} as const;

export function applyServerLimits(server: Server): void {
  server.headersTimeout = SERVER_LIMITS.headersTimeout;
  server.requestTimeout = SERVER_LIMITS.requestTimeout;
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeout;
  server.maxHeadersCount = SERVER_LIMITS.maxHeadersCount;
}
