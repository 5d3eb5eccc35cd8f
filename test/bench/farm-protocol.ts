/** Messages between the bench and its emulator farm (farm.ts). */
import type { EmulatorOptions } from '../../src-main/emulator/index';

export interface FarmStats {
  requests: number;
  unauthorized: number;
  maxInFlight: number;
  inFlight: number;
}

export type FarmRequest =
  | {
      id: number;
      cmd: 'start';
      count: number;
      options: Omit<EmulatorOptions, 'host' | 'port' | 'mdns'>;
    }
  | { id: number; cmd: 'stats' }
  | { id: number; cmd: 'reset' }
  | { id: number; cmd: 'latency'; ms: number }
  | { id: number; cmd: 'close' };

export type FarmReply =
  { id: number; ok: true; urls?: string[]; stats?: FarmStats[] } | { id: number; ok: false; error: string };
