import type { ContractError, PlugboardApi, Result } from '../../src-preload/contract';

/**
 * What the window talks to: `window.plugboard`, built from the contract by the Electron preload or the
 * web shell's bridge. State classes take it as a constructor argument so they never reach for a global.
 */
export type Backend = PlugboardApi;

/** The backend of this page, or null when the page was opened without a Plugboard shell around it. */
export function windowBackend(): Backend | null {
  return (globalThis as { plugboard?: Backend }).plugboard ?? null;
}

/** A contract error for when the bridge itself fails (the call never got an answer). */
export function bridgeError(cause: unknown): ContractError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return {
    code: 'INTERNAL',
    message: `The window lost contact with Plugboard’s main process (${why}). Reload the window; if it keeps happening, restart Plugboard.`,
  };
}

/** Results are data: a rejected promise (a broken bridge) becomes an INTERNAL error result too. */
export async function settle<T>(pending: Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await pending;
  } catch (cause) {
    return { ok: false, error: bridgeError(cause) };
  }
}
