/** Messages between the bench and the memory run's child (memory-child.ts). */

export interface MemoryJob {
  urls: string[];
  pollIntervalMs: number;
  warmupMs: number;
  durationMs: number;
  sampleEveryMs: number;
}

export interface MemorySample {
  /** Seconds since polling was steady (all controllers online). */
  seconds: number;
  phase: 'warm-up' | 'run';
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export type MemoryMessage =
  | { kind: 'ready' }
  | { kind: 'sample'; sample: MemorySample }
  | {
      kind: 'done';
      samples: MemorySample[];
      stateEvents: number;
      historyPoints: number;
      metersPerController: number;
      gcExposed: boolean;
    }
  | { kind: 'error'; message: string };
