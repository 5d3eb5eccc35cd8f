/**
 * pdudaemon's clients by the network they come from. Its protocol has no login (pduclient and labgrid
 * send none), so a network is the only credential it has: `--allow ci=10.20.0.0/16[operator tags=farm]`
 * names a client, and every request from there acts as `ci` with that role and scope, in the activity
 * log and in reservations alike. The most specific network names a client. A plain network
 * (`--allow 10.20.0.0/16`), and loopback unless a named network covers it, keep the meaning they had:
 * an operator everywhere, named by its address.
 */
import { isIP } from 'node:net';
import type { ActivityDoor, Caller, ControllerSummary } from '../../src-preload/model';
import { grantWords, resolveScope, unresolvedScope } from './grants';
import { plainAddress, type AllowedClient, type ClientNetworks } from './network';

/** The named clients with their scopes' controllers found among the saved ones, or a sentence. */
export function resolveAllowScopes(
  allow: ClientNetworks,
  controllers: readonly ControllerSummary[],
): ClientNetworks | string {
  const clients: AllowedClient[] = [];
  for (const client of allow.clients) {
    const scope = resolveScope(client.written, controllers, `--allow ${client.name}=${client.network}`);
    if (typeof scope === 'string') return scope;
    clients.push({ ...client, scope });
  }
  return { ...allow, clients };
}

/** The named client a remote address belongs to: the most specific network, the first given on a tie. */
export function allowedClientOf(allow: ClientNetworks | null, remote: string): AllowedClient | null {
  const plain = plainAddress(remote);
  const family = isIP(plain);
  if (!family) return null;
  const type = family === 6 ? 'ipv6' : 'ipv4';
  let found: AllowedClient | null = null;
  for (const client of allow?.clients ?? [])
    if (client.list.check(plain, type) && (!found || client.prefix > found.prefix)) found = client;
  return found;
}

/** Whom a pdudaemon request from `remote` acts as, through `door`. */
export function pdudaemonCaller(door: ActivityDoor, remote: string, allow: ClientNetworks | null): Caller {
  const client = allowedClientOf(allow, remote);
  if (!client) return { door, who: `pdudaemon client ${plainAddress(remote)}`, role: 'operator' };
  const scope = client.scope ?? unresolvedScope(client.written);
  return { door, who: client.name, role: client.role, scope };
}

/** What `plugboard serve` says at start about who may switch through pdudaemon. */
export function pdudaemonLines(
  allow: ClientNetworks | null,
  controllers: readonly ControllerSummary[],
): string[] {
  const named = new Set(allow?.clients.map((c) => c.network) ?? []);
  const plain = (allow?.given ?? []).filter((network) => !named.has(network));
  const reach = `every account on this machine${plain.length ? ` and the networks ${plain.join(', ')}` : ''}`;
  return [
    `pdudaemon: its protocol has no login: ${reach} may switch power through it (as operators).`,
    ...(allow?.clients ?? []).map(
      (c) =>
        `pdudaemon: clients from ${c.network} act as ${c.name} (${grantWords(c.role, c.scope ?? unresolvedScope(c.written), controllers)}).`,
    ),
    ...(plain.length
      ? [
          `pdudaemon: to give a network a name, a role and a scope, write it as --allow ci=${plain[0]}[operator tags=farm].`,
        ]
      : []),
  ];
}
