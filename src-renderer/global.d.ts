import type { PlugboardApi } from '../src-preload/contract';

declare global {
  interface Window {
    /** The only door to the main process: built from src-preload/contract.ts by the preload (Electron) or the web shell. */
    plugboard: PlugboardApi;
  }
}

export {};
