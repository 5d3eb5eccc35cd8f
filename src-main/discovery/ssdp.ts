import dgram from 'node:dgram';
import { parseWemoSetupXml } from './wemo-setup-xml';
import { baseUrl, type Sighting } from './results';
import { Limiter } from './work-pool';

/**
 * SSDP search for DLI controllers' WeMo emulation, with a plain UDP socket. node-ssdp (no longer a
 * dependency) was not used: it only binds non-internal interfaces (so it cannot be tested on loopback inside a
 * namespace), and it pulls in `ip` 1.x and bluebird for what is one datagram and a header parser.
 */

export const SSDP_ADDRESS = '239.255.255.250';
export const SSDP_PORT = 1900;
/** Each exposed outlet of a DLI controller answers as one of these (reference §9). */
export const WEMO_SEARCH_TARGET = 'urn:Belkin:device:controllee:1';

const MAX_SETUP_XML_BYTES = 64 * 1024;

export interface SsdpSearchOptions {
  listenMs: number;
  /** Timeout for fetching one setup.xml. */
  fetchTimeoutMs: number;
  signal?: AbortSignal;
  onSighting: (sighting: Sighting) => void;
  onError: (error: Error) => void;
}

export function mSearch(searchTarget = WEMO_SEARCH_TARGET, mx = 2): Buffer {
  return Buffer.from(
    [
      `M-SEARCH * HTTP/1.1`,
      `HOST: ${SSDP_ADDRESS}:${SSDP_PORT}`,
      `MAN: "ssdp:discover"`,
      `MX: ${mx}`,
      `ST: ${searchTarget}`,
      '',
      '',
    ].join('\r\n'),
  );
}

/** Headers of an SSDP answer (`HTTP/1.1 200 OK` + header lines), lower-case names; null if it is not one. */
export function parseSsdpResponse(message: string): Record<string, string> | null {
  const lines = message.split(/\r?\n/);
  if (!/^HTTP\/1\.[01] 200\b/i.test(lines[0] ?? '')) return null;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function fetchText(url: URL, timeoutMs: number, signal?: AbortSignal): Promise<string | null> {
  return new Promise((resolve) => {
    // Taken when it runs, not imported (recognise.ts says why).
    const http = process.getBuiltinModule('node:http');
    const request = http.get(url, { agent: false, timeout: timeoutMs, signal }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return resolve(null);
      }
      let size = 0;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_SETUP_XML_BYTES) return request.destroy();
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', () => resolve(null));
      response.on('close', () => resolve(null));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}

/** Multicast an M-SEARCH a few times over `listenMs`, read each answering device's setup.xml, report the parent controllers. */
export function searchSsdp(options: SsdpSearchOptions): Promise<void> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    const limiter = new Limiter(8);
    const fetches: Promise<void>[] = [];
    const locations = new Set<string>();
    const timers: NodeJS.Timeout[] = [];
    let finished = false;

    const finish = () => {
      if (finished) return;
      finished = true;
      timers.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', finish);
      try {
        socket.close();
      } catch {
        // Already closed after a socket error.
      }
      void Promise.allSettled(fetches).then(() => resolve());
    };
    const fail = (error: Error) => {
      if (finished) return;
      options.onError(error);
      finish();
    };

    socket.on('error', fail);
    socket.on('message', (message, rinfo) => {
      const headers = parseSsdpResponse(message.toString('utf8'));
      const location = headers?.location;
      if (!headers || !location || locations.has(location) || finished) return;
      const kind = `${headers.st ?? ''} ${headers.usn ?? ''}`;
      if (!/controllee/i.test(kind)) return;
      let url: URL;
      try {
        url = new URL(location);
      } catch {
        return;
      }
      // Only follow a description on the device that answered: an answer cannot send us elsewhere.
      if (url.protocol !== 'http:' || url.hostname !== rinfo.address) return;
      locations.add(location);
      fetches.push(
        limiter.run(async () => {
          const xml = await fetchText(url, options.fetchTimeoutMs, options.signal);
          if (xml === null || options.signal?.aborted) return;
          const device = parseWemoSetupXml(xml);
          if (!device.parent || !/controllee/i.test(device.deviceType ?? '')) return;
          options.onSighting({
            url: baseUrl(rinfo.address, 80),
            host: rinfo.address,
            port: 80,
            name: device.parent.name,
            serial: device.parent.serial,
            model: device.parent.model,
            source: 'ssdp',
          });
        }),
      );
    });

    socket.bind(0, () => {
      if (finished) return;
      socket.setMulticastTTL(2);
      const send = () => {
        if (!finished) socket.send(mSearch(), SSDP_PORT, SSDP_ADDRESS, (error) => error && fail(error));
      };
      // UDP may drop a datagram: ask three times within the listening window.
      send();
      timers.push(
        setTimeout(send, Math.min(1000, options.listenMs / 3)),
        setTimeout(send, Math.min(2000, (options.listenMs * 2) / 3)),
      );
    });
    timers.push(setTimeout(finish, options.listenMs));
    if (options.signal?.aborted) finish();
    else options.signal?.addEventListener('abort', finish, { once: true });
  });
}
