import { callNames, eventNames, splitCallName, type PlugboardApi } from './contract';

/** How a preload reaches main: one call (answered with a Result), and a subscription to one event. */
export interface ApiTransport {
  invoke(name: string, input: unknown): Promise<unknown>;
  /** Start delivering `name` to `listener`; returns the function that stops it. */
  subscribe(name: string, listener: (payload: unknown) => void): () => void;
}

/**
 * `window.plugboard`, built from the contract's names for both preloads: the Electron window's
 * (index.ts, over IPC) and the browser tab's (src-main/web/page/web-preload.ts, over the web shell's
 * socket). `plugboard.outlets.set(input)` becomes `invoke('outlets/set', input)`; `plugboard.on`
 * refuses an event the contract does not name. Frozen: the page cannot swap a call for another.
 */
export function buildPlugboardApi(transport: ApiTransport): PlugboardApi {
  const api: Record<string, unknown> = {};
  for (const name of callNames) {
    const [domain, action] = splitCallName(name);
    ((api[domain] ??= {}) as Record<string, unknown>)[action] = (input: unknown) =>
      transport.invoke(name, input);
  }
  for (const domain of Object.keys(api)) Object.freeze(api[domain]);
  const known = new Set<string>(eventNames);
  api.on = (name: string, listener: (payload: unknown) => void) => {
    if (!known.has(name)) throw new Error(`Unknown event ${name}`);
    if (typeof listener !== 'function') throw new TypeError('plugboard.on needs a listener function');
    return transport.subscribe(name, (payload) => listener(payload));
  };
  return Object.freeze(api) as unknown as PlugboardApi;
}
