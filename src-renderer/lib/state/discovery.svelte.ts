import { createSubscriber } from 'svelte/reactivity';
import type { ContractError, DiscoveredController, DiscoveryProgress } from '../../../src-preload/contract';
import { settle, type Backend } from '../backend';

export interface DiscoveryOptions {
  mdns: boolean;
  ssdp: boolean;
  /** e.g. `192.168.0.1-192.168.0.50` or `192.168.0.0/24`; empty = no address probe. */
  range: string;
}

/** One discovery run at a time: its progress events, its results and its errors. */
export class Discovery {
  #runId = $state<string | null>(null);
  #byRun = $state.raw<Record<string, DiscoveryProgress>>({});
  #error = $state.raw<ContractError | null>(null);
  #starting = $state(false);
  #stopped = $state(false);
  /** Addresses of the found controllers ticked for a bulk add. */
  #selected = $state.raw<readonly string[]>([]);
  readonly #api: Backend;
  readonly #subscribe: () => void;

  /** Addresses saved since the run (a bulk add): no longer selectable. */
  readonly #savedNow: () => readonly string[];

  constructor(api: Backend, savedNow: () => readonly string[] = () => []) {
    this.#api = api;
    this.#savedNow = savedNow;
    this.#subscribe = createSubscriber(() =>
      api.on('discovery/progress', (progress) => {
        this.#byRun = { ...this.#byRun, [progress.runId]: progress };
      }),
    );
  }

  /** The current run's latest progress (events may arrive before `discovery/start` answers). */
  get progress(): DiscoveryProgress | null {
    this.#subscribe();
    return this.#runId ? (this.#byRun[this.#runId] ?? null) : null;
  }

  get running(): boolean {
    return this.#starting || (this.#runId !== null && !this.#stopped && !this.progress?.done);
  }

  /** The error of starting or stopping, or the run's own error. */
  get error(): ContractError | null {
    return this.#error ?? this.progress?.error ?? null;
  }

  async start(options: DiscoveryOptions): Promise<void> {
    if (this.running) return;
    this.#starting = true;
    this.#error = null;
    this.#stopped = false;
    this.#runId = null;
    this.#selected = [];
    const range = options.range.trim();
    const result = await settle(
      this.#api.discovery.start({ mdns: options.mdns, ssdp: options.ssdp, ...(range ? { range } : {}) }),
    );
    this.#starting = false;
    if (result.ok) this.#runId = result.value.runId;
    else this.#error = result.error;
  }

  async stop(): Promise<void> {
    const runId = this.#runId;
    if (!runId) return;
    const result = await settle(this.#api.discovery.stop({ runId }));
    // The results found so far stay on screen.
    if (result.ok) this.#stopped = true;
    else this.#error = result.error;
  }

  /** Found controllers not saved yet: the ones that can be selected and added. */
  get addable(): DiscoveredController[] {
    return this.progress?.results.filter((found) => !this.isSaved(found)) ?? [];
  }

  /** Saved when found, or since. */
  isSaved(found: DiscoveredController): boolean {
    if (found.savedId) return true;
    const place = sameAddress(found.url);
    return this.#savedNow().some((url) => sameAddress(url) === place);
  }

  /** The selected ones, in the order found. */
  get selected(): DiscoveredController[] {
    return this.addable.filter((found) => this.#selected.includes(found.url));
  }

  isSelected(url: string): boolean {
    return this.#selected.includes(url);
  }

  select(url: string, on: boolean): void {
    const others = this.#selected.filter((selected) => selected !== url);
    this.#selected = on ? [...others, url] : others;
  }

  selectAll(): void {
    this.#selected = this.addable.map((found) => found.url);
  }

  selectNone(): void {
    this.#selected = [];
  }
}

/** `http://host` and `http://host:80` are one address. */
function sameAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`.toLowerCase();
  } catch {
    return url;
  }
}
