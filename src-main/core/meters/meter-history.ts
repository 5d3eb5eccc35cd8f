/**
 * Rolling meter history of one controller: every poll's readings on one shared timeline, kept at poll
 * resolution for `retentionMs` (24 h by default). Stored in fixed-size chunks of typed arrays — epoch
 * ms as Float64, readings as Float32 (NaN = no reading) — so memory grows by one chunk at a time and
 * whole chunks are dropped once all their samples are older than the retention.
 */
import type { MeterHistory, MeterReading } from '../../../src-preload/model';

const CHUNK = 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Float32 holds about 7 significant digits; printing more would show noise, not precision. */
const DIGITS = 7;

interface Chunk {
  times: Float64Array;
  /** One column per meter key seen while this chunk was filling. */
  columns: Map<string, Float32Array>;
  length: number;
}

export interface MeterMeta {
  name: string;
  unit: MeterReading['unit'];
}

export interface MeterHistoryOptions {
  /** How long samples are kept, ms (default 24 h). */
  retentionMs?: number;
  /** Hard cap on samples kept, whatever the poll interval (default: 24 h at two polls a second). */
  maxSamples?: number;
}

export class MeterSeries {
  readonly #retentionMs: number;
  readonly #maxSamples: number;
  #chunks: Chunk[] = [];
  /** Name and unit of every key seen, in the order first seen. */
  readonly #meta = new Map<string, MeterMeta>();

  constructor(options: MeterHistoryOptions = {}) {
    this.#retentionMs = options.retentionMs ?? DAY_MS;
    this.#maxSamples = options.maxSamples ?? 2 * 86_400;
  }

  /** Samples held. */
  get size(): number {
    return this.#chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** Bytes held by the typed arrays (for tests and the memory benchmark). */
  get bytes(): number {
    let bytes = 0;
    for (const chunk of this.#chunks) {
      bytes += chunk.times.byteLength;
      for (const column of chunk.columns.values()) bytes += column.byteLength;
    }
    return bytes;
  }

  keys(): string[] {
    return [...this.#meta.keys()];
  }

  meta(key: string): MeterMeta | null {
    return this.#meta.get(key) ?? null;
  }

  /** Add one poll's readings taken at `time` (epoch ms). Times must not go backwards. */
  add(time: number, readings: readonly MeterReading[]): void {
    const last = this.#chunks.at(-1);
    const lastTime = last && last.length > 0 ? last.times[last.length - 1]! : Number.NEGATIVE_INFINITY;
    if (time < lastTime) return;
    let chunk = last;
    if (!chunk || chunk.length === CHUNK) {
      chunk = { times: new Float64Array(CHUNK), columns: new Map(), length: 0 };
      this.#chunks.push(chunk);
    }
    const at = chunk.length;
    chunk.times[at] = time;
    for (const reading of readings) {
      this.#meta.set(reading.key, { name: reading.name, unit: reading.unit });
      let column = chunk.columns.get(reading.key);
      if (!column) {
        // Samples taken before this key appeared have no reading.
        column = new Float32Array(CHUNK).fill(Number.NaN);
        chunk.columns.set(reading.key, column);
      }
      column[at] = reading.value ?? Number.NaN;
    }
    // A key missing from this poll keeps NaN at this position.
    for (const [key, column] of chunk.columns) {
      if (!readings.some((r) => r.key === key)) column[at] = Number.NaN;
    }
    chunk.length++;
    this.#prune(time);
  }

  /** One meter's history for a chart: epoch seconds and values (null = no reading). */
  history(key: string): MeterHistory | null {
    const meta = this.#meta.get(key);
    if (!meta) return null;
    const t: number[] = [];
    const v: (number | null)[] = [];
    for (const chunk of this.#chunks) {
      const column = chunk.columns.get(key);
      for (let i = 0; i < chunk.length; i++) {
        t.push(chunk.times[i]! / 1000);
        v.push(column ? readable(column[i]!) : null);
      }
    }
    return { key, unit: meta.unit, t, v };
  }

  /** Every sample: time (epoch ms) and one value per key of `keys()`. */
  *rows(): Generator<{ time: number; values: (number | null)[] }> {
    const keys = this.keys();
    for (const chunk of this.#chunks) {
      const columns = keys.map((key) => chunk.columns.get(key));
      for (let i = 0; i < chunk.length; i++) {
        yield {
          time: chunk.times[i]!,
          values: columns.map((column) => (column ? readable(column[i]!) : null)),
        };
      }
    }
  }

  /**
   * The meter `from` now reports as `to` (its id changed): its samples and name continue under `to`.
   * Does nothing when `to` already has samples of its own.
   */
  rename(from: string, to: string): void {
    const meta = this.#meta.get(from);
    if (!meta || this.#meta.has(to)) return;
    this.#meta.delete(from);
    this.#meta.set(to, meta);
    for (const chunk of this.#chunks) {
      const column = chunk.columns.get(from);
      if (!column) continue;
      chunk.columns.delete(from);
      chunk.columns.set(to, column);
    }
  }

  clear(): void {
    this.#chunks = [];
    this.#meta.clear();
  }

  #prune(now: number): void {
    const oldest = now - this.#retentionMs;
    while (this.#chunks.length > 1) {
      const first = this.#chunks[0]!;
      const newest = first.times[first.length - 1]!;
      if (newest >= oldest && this.size - first.length < this.#maxSamples) break;
      this.#chunks.shift();
    }
  }
}

function readable(value: number): number | null {
  return Number.isNaN(value) ? null : Number(value.toPrecision(DIGITS));
}
