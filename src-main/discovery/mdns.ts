import { Bonjour, type Service } from 'bonjour-service';
import { isIP } from 'node:net';
import { recogniseController, type Recognised } from './recognise';
import { baseUrl, type Sighting } from './results';
import { Limiter } from './work-pool';

/**
 * Service types browsed: `_http._tcp` is what the emulator's `--mdns`, a future firmware or any web
 * UI would announce; `_https._tcp` covers controllers switched to HTTPS only. Every service found is
 * verified by the controller's digest challenge, so printers and NAS boxes drop out.
 */
export const MDNS_SERVICE_TYPES = ['http', 'https'] as const;

export interface MdnsBrowseOptions {
  /** How long to listen for answers. */
  listenMs: number;
  /** Per-service timeout of the `/restapi/` check. */
  verifyTimeoutMs: number;
  signal?: AbortSignal;
  onSighting: (sighting: Sighting) => void;
  /** A socket problem (e.g. no multicast route); browsing stops. */
  onError: (error: Error) => void;
}

function txtValue(service: Service, keys: readonly string[]): string | null {
  const txt = (service.txt ?? {}) as Record<string, unknown>;
  for (const key of keys) {
    const value = txt[key];
    if (typeof value === 'string' && value.trim()) return value.trim().slice(0, 128);
  }
  return null;
}

/** The address to reach a service at: an announced IPv4, else any announced address, else where the answer came from. */
export function serviceHost(service: Pick<Service, 'addresses' | 'referer'>): string | null {
  const addresses = (service.addresses ?? []).filter((a) => isIP(a) !== 0);
  return (
    addresses.find((a) => isIP(a) === 4) ??
    addresses.find((a) => !a.toLowerCase().startsWith('fe80:')) ??
    service.referer?.address ??
    null
  );
}

/** Browse mDNS for `listenMs`, verify each HTTP(S) service, report the controllers. */
export function browseMdns(options: MdnsBrowseOptions): Promise<void> {
  return new Promise((resolve) => {
    const limiter = new Limiter(8);
    const checks: Promise<void>[] = [];
    const seen = new Set<string>();
    let finished = false;

    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      requeries.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', finish);
      for (const browser of browsers) browser.stop();
      bonjour.destroy();
      void Promise.allSettled(checks).then(() => resolve());
    };
    const fail = (error: unknown) => {
      if (finished) return;
      options.onError(error instanceof Error ? error : new Error(String(error)));
      finish();
    };

    const bonjour = new Bonjour({}, fail);
    // multicast-dns emits 'error' when it cannot bind or join the group; unheard, that would crash the app.
    (bonjour as unknown as { server: { mdns: NodeJS.EventEmitter } }).server.mdns.on('error', fail);

    const onUp = (secure: boolean) => (service: Service) => {
      const host = serviceHost(service);
      if (!host || !service.port || finished) return;
      const key = `${host}:${service.port}`;
      if (seen.has(key)) return;
      seen.add(key);
      const url = baseUrl(host, service.port, secure);
      const check = limiter.run(async () => {
        if (options.signal?.aborted) return;
        const recognised: Recognised | null = await recogniseController(url, {
          timeoutMs: options.verifyTimeoutMs,
          signal: options.signal,
        });
        if (!recognised || options.signal?.aborted) return;
        options.onSighting({
          url,
          host,
          port: service.port,
          name: service.name?.trim() || null,
          serial: txtValue(service, ['serial', 'sn']) ?? recognised.serial,
          model: txtValue(service, ['model', 'md']),
          source: 'mdns',
        });
      });
      checks.push(check);
    };

    const browsers = MDNS_SERVICE_TYPES.map((type) => bonjour.find({ type }, onUp(type === 'https')));
    // Ask again after 1 s and 3 s (RFC 6762 §5.2): a single query is easily lost or arrives while a
    // responder is still probing its name.
    const requeries = [1000, 3000]
      .filter((delay) => delay < options.listenMs)
      .map((delay) => setTimeout(() => browsers.forEach((browser) => browser.update()), delay));
    const timer = setTimeout(finish, options.listenMs);
    if (options.signal?.aborted) finish();
    else options.signal?.addEventListener('abort', finish, { once: true });
  });
}
