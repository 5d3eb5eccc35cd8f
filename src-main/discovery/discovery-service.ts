import { randomBytes } from 'node:crypto';
import type {
  ContractError,
  ControllerSummary,
  DiscoveredController,
  DiscoveryProgress,
} from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import { parseAddressRange, type AddressRange } from './address-range';
import { browseMdns } from './mdns';
import { probeRange } from './probe';
import { DiscoveryResults } from './results';
import { searchSsdp } from './ssdp';

/** What to look with, as `discovery/start` asks. */
export interface DiscoveryRequest {
  mdns: boolean;
  ssdp: boolean;
  /** An address range the person typed (see parseAddressRange). */
  range?: string | undefined;
}

export interface DiscoveryTuning {
  /** How long mDNS and SSDP listen for answers (default 5 s). */
  listenMs?: number;
  /** Addresses probed at once (default 8). */
  probeConcurrency?: number;
  /** Per-address timeout of the probe and of each verification (default 1.5 s). */
  timeoutMs?: number;
}

export interface DiscoverOptions extends DiscoveryTuning {
  signal?: AbortSignal;
  /** Saved controllers, to mark findings already saved (`savedId`). */
  savedControllers?: () => readonly ControllerSummary[];
  /** Called on every change: progress of the probe, a new finding, the end. */
  onProgress?: (progress: Omit<DiscoveryProgress, 'runId'>) => void;
}

function sourceError(source: string, error: Error): ContractError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const network = ['ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'ENODEV'].includes(code);
  return {
    code: network ? 'UNREACHABLE' : 'INTERNAL',
    message: network
      ? `${source} could not reach the local network (${code}); the other searches went on.`
      : `${source} could not start (${error.message.slice(0, 120)}); the other searches went on.`,
  };
}

/** Check a request before anything is sent; BAD_INPUT names what is wrong. */
export function checkDiscoveryRequest(request: DiscoveryRequest): AddressRange | null {
  const range = request.range?.trim() ? parseAddressRange(request.range) : null;
  if (!request.mdns && !request.ssdp && !range) {
    throw new PlugboardError(
      'BAD_INPUT',
      'Choose at least one way to search: mDNS, SSDP (WeMo emulation) or an address range.',
    );
  }
  return range;
}

/**
 * One discovery run: the chosen sources in parallel, merged by host:port. Resolves with the final
 * list when every source is done or `signal` aborts (then with what was found so far).
 */
export async function discover(
  request: DiscoveryRequest,
  options: DiscoverOptions = {},
): Promise<DiscoveredController[]> {
  const range = checkDiscoveryRequest(request);
  const results = new DiscoveryResults();
  const listenMs = options.listenMs ?? 5000;
  const timeoutMs = options.timeoutMs ?? 1500;
  const saved = () => options.savedControllers?.() ?? [];
  let probed = 0;
  const total = range?.hosts.length ?? 0;
  let error: ContractError | null = null;
  let done = false;
  const report = () => options.onProgress?.({ probed, total, done, results: results.list(saved()), error });
  const onSighting = (sighting: Parameters<DiscoveryResults['add']>[0]) => {
    if (!options.signal?.aborted && results.add(sighting)) report();
  };
  const onError = (source: string) => (cause: Error) => {
    error ??= sourceError(source, cause);
    report();
  };

  report();
  const runs: Promise<void>[] = [];
  if (request.mdns)
    runs.push(
      browseMdns({
        listenMs,
        verifyTimeoutMs: timeoutMs,
        signal: options.signal,
        onSighting,
        onError: onError('mDNS'),
      }),
    );
  if (request.ssdp)
    runs.push(
      searchSsdp({
        listenMs,
        fetchTimeoutMs: timeoutMs,
        signal: options.signal,
        onSighting,
        onError: onError('SSDP'),
      }),
    );
  if (range) {
    runs.push(
      probeRange(range, {
        concurrency: options.probeConcurrency ?? 8,
        timeoutMs,
        signal: options.signal,
        onSighting,
        onProgress: (count) => {
          probed = count;
          report();
        },
      }),
    );
  }
  await Promise.all(runs);
  done = true;
  report();
  return results.list(saved());
}

export interface DiscoveryServiceOptions extends DiscoveryTuning {
  /** Pushes `discovery/progress` events. */
  onProgress: (progress: DiscoveryProgress) => void;
  savedControllers?: () => readonly ControllerSummary[];
}

/**
 * Discovery runs for the Core: `start` answers at once with a run id and progress follows as
 * events; `stop` cancels. Starting a new run stops the one before (one search at a time).
 */
export class DiscoveryService {
  readonly #options: DiscoveryServiceOptions;
  readonly #runs = new Map<string, { abort: AbortController; finished: Promise<DiscoveredController[]> }>();

  constructor(options: DiscoveryServiceOptions) {
    this.#options = options;
  }

  /** Validate (BAD_INPUT before anything is sent), then start searching in the background. */
  start(request: DiscoveryRequest): { runId: string } {
    checkDiscoveryRequest(request);
    for (const runId of [...this.#runs.keys()]) this.stop(runId);
    const runId = `d${randomBytes(6).toString('hex')}`;
    const abort = new AbortController();
    const finished = discover(request, {
      listenMs: this.#options.listenMs,
      probeConcurrency: this.#options.probeConcurrency,
      timeoutMs: this.#options.timeoutMs,
      savedControllers: this.#options.savedControllers,
      signal: abort.signal,
      onProgress: (progress) => this.#options.onProgress({ runId, ...progress }),
    }).finally(() => this.#runs.delete(runId));
    this.#runs.set(runId, { abort, finished });
    return { runId };
  }

  /** Cancel a run; its last progress event says done. False when it is not running. */
  stop(runId: string): boolean {
    const run = this.#runs.get(runId);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  /** The final list of a running run (for tests and the CLI); null when there is no such run. */
  finished(runId: string): Promise<DiscoveredController[]> | null {
    return this.#runs.get(runId)?.finished ?? null;
  }

  /** Stop every run and wait for their sockets to close. */
  async dispose(): Promise<void> {
    const runs = [...this.#runs.values()];
    for (const run of runs) run.abort.abort();
    await Promise.allSettled(runs.map((run) => run.finished));
  }
}
