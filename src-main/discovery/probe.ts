import type { AddressRange } from './address-range';
import { recogniseController } from './recognise';
import { baseUrl, type Sighting } from './results';
import { runPool } from './work-pool';

export interface ProbeOptions {
  /** Addresses asked at once; low, so a probe never floods a network or a weak controller. */
  concurrency: number;
  /** Per-address timeout (connect + answer). */
  timeoutMs: number;
  signal?: AbortSignal;
  onSighting: (sighting: Sighting) => void;
  /** After each address: how many are done out of how many. */
  onProgress: (probed: number, total: number) => void;
}

/** Ask every address of the range for `/restapi/` and report the ones that answer with a DLI challenge. */
export async function probeRange(range: AddressRange, options: ProbeOptions): Promise<void> {
  const port = range.port ?? 80;
  const total = range.hosts.length;
  let probed = 0;
  await runPool(
    range.hosts,
    options.concurrency,
    async (host) => {
      const url = baseUrl(host, port);
      const recognised = await recogniseController(url, {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
      });
      if (options.signal?.aborted) return;
      probed++;
      if (recognised)
        options.onSighting({
          url,
          host,
          port,
          name: null,
          serial: recognised.serial,
          model: null,
          source: 'probe',
        });
      options.onProgress(probed, total);
    },
    options.signal,
  );
}
