import type { ControllerSummary, DiscoveredController, DiscoverySource } from '../../src-preload/model';
import { hostPortKey } from '../shared/controller-address';

/** One sighting of a controller by one source, before merging. */
export interface Sighting {
  /** `http[s]://host[:port]` to add it by. */
  url: string;
  host: string;
  port: number;
  name: string | null;
  serial: string | null;
  model: string | null;
  source: DiscoverySource;
}

const SOURCE_ORDER: readonly DiscoverySource[] = ['mdns', 'ssdp', 'probe'];

function ipv4Rank(host: string): number[] | null {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : null;
}

/** Numeric order for IPv4 addresses, names after them alphabetically, then by port. */
function compare(a: DiscoveredController, b: DiscoveredController): number {
  const ra = ipv4Rank(a.host);
  const rb = ipv4Rank(b.host);
  if (ra && rb) {
    for (let i = 0; i < 4; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  } else if (ra || rb) {
    return ra ? -1 : 1;
  } else if (a.host !== b.host) {
    return a.host < b.host ? -1 : 1;
  }
  return a.port - b.port;
}

/** The merged findings of one discovery run: one entry per host:port, whoever saw it. */
export class DiscoveryResults {
  readonly #byAddress = new Map<string, Omit<DiscoveredController, 'savedId'>>();

  /** Add a sighting; true when it added or changed anything. */
  add(sighting: Sighting): boolean {
    const key = `${sighting.host.toLowerCase()}:${sighting.port}`;
    const known = this.#byAddress.get(key);
    if (!known) {
      const { source, ...rest } = sighting;
      this.#byAddress.set(key, { ...rest, host: sighting.host.toLowerCase(), sources: [source] });
      return true;
    }
    const before = JSON.stringify(known);
    known.name ??= sighting.name;
    known.serial ??= sighting.serial;
    known.model ??= sighting.model;
    if (!known.sources.includes(sighting.source)) {
      known.sources = SOURCE_ORDER.filter((s) => s === sighting.source || known.sources.includes(s));
    }
    // An https sighting (mDNS _https._tcp) is the address to add by: the controller talks TLS there.
    if (sighting.url.startsWith('https:')) known.url = sighting.url;
    return JSON.stringify(known) !== before;
  }

  get size(): number {
    return this.#byAddress.size;
  }

  /** The findings in address order, each marked with the saved controller at that address, if any. */
  list(saved: readonly ControllerSummary[] = []): DiscoveredController[] {
    const savedByAddress = new Map<string, string>();
    for (const controller of saved) {
      try {
        savedByAddress.set(hostPortKey(controller.url), controller.id);
      } catch {
        // A saved address that does not parse cannot match anything.
      }
    }
    return [...this.#byAddress.values()]
      .map((found) => ({
        ...found,
        sources: [...found.sources],
        savedId: savedByAddress.get(`${found.host}:${found.port}`) ?? null,
      }))
      .sort(compare);
  }
}

/** `http://host[:port]` for a host (IPv6 bracketed) and port; https for 443. */
export function baseUrl(host: string, port: number, secure = port === 443): string {
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const defaultPort = secure ? 443 : 80;
  return `${secure ? 'https' : 'http'}://${shownHost}${port === defaultPort ? '' : `:${port}`}`;
}
