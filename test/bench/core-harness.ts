/**
 * Plugboard's Core as the shells run it, with saved controllers, driven through `dispatch` (exactly what
 * the IPC and WebSocket bindings run) and watched through its events.
 */
import type { CallName, CallInput, CallResult, ControllerState } from '../../src-preload/contract';
import {
  createCore,
  dispatch,
  MemoryStore,
  type Core,
  type KeyValueStore,
  type PollTiming,
} from '../../src-main/core/index';
import { ControllerRegistry, SETTINGS_KEY } from '../../src-main/core/store';
import { MemorySecretStore, type SecretStore } from '../../src-main/secrets/index';
import { PASSWORD, USER } from './baselines';
import { onCleanup } from './cleanup';
import { now, waitFor } from './numbers';

export interface CoreRun {
  core: Core;
  /** Controller ids in the order of the URLs given. */
  ids: string[];
  /** The latest pushed state per controller id. */
  states: Map<string, ControllerState>;
  /** Run one contract call through the dispatcher; throws the contract error if it fails. */
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>>;
  /** Resolves with now() at the first state event after which `check` holds (checked at once too). */
  when(
    check: (states: Map<string, ControllerState>) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<number>;
  /** Resolves once every controller is online with its outlets read. */
  online(timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

export interface CoreRunOptions {
  pollIntervalMs: number;
  timing?: Partial<PollTiming>;
  visible?: boolean;
  store?: KeyValueStore;
  secrets?: SecretStore;
  /** Pinned certificate fingerprints (HTTPS), in the order of the URLs. */
  fingerprints?: readonly (string | null)[];
}

/** Save the controllers (name "Bench N", the emulator's factory login) in a store the Core will read. */
export async function saveControllers(
  urls: readonly string[],
  store: KeyValueStore,
  secrets: SecretStore,
  fingerprints: readonly (string | null)[] = [],
): Promise<string[]> {
  const registry = new ControllerRegistry({ store, secrets, log: () => undefined });
  const ids: string[] = [];
  for (const [i, url] of urls.entries()) {
    const fingerprint = fingerprints[i] ?? null;
    const saved = await registry.add(
      { name: `Bench ${i + 1}`, url, auth: 'digest', user: USER, fingerprint },
      PASSWORD,
    );
    ids.push(saved.id);
  }
  return ids;
}

export async function startCore(urls: readonly string[], options: CoreRunOptions): Promise<CoreRun> {
  const store = options.store ?? new MemoryStore();
  const secrets = options.secrets ?? new MemorySecretStore();
  const ids = await saveControllers(urls, store, secrets, options.fingerprints);
  store.set(SETTINGS_KEY, { ...store.get(SETTINGS_KEY, {}), pollIntervalMs: options.pollIntervalMs });
  const core = createCore({
    shell: 'web',
    version: 'bench',
    store,
    secrets,
    dataDir: null,
    visible: options.visible ?? true,
    timing: options.timing ?? {},
    log: (message, error) => console.error(`[core] ${message}`, error ?? ''),
  });
  const states = new Map<string, ControllerState>();
  const watchers = new Set<() => void>();
  const unsubscribe = core.subscribe((name, payload) => {
    if (name === 'state/changed') {
      const state = payload as ControllerState;
      states.set(state.id, state);
      for (const watcher of [...watchers]) watcher();
    }
  });
  const when = (
    check: (all: Map<string, ControllerState>) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<number> =>
    new Promise((resolve, reject) => {
      const watcher = (): void => {
        if (!check(states)) return;
        watchers.delete(watcher);
        clearTimeout(timer);
        resolve(now());
      };
      const timer = setTimeout(() => {
        watchers.delete(watcher);
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      watchers.add(watcher);
      watcher();
    });
  const dispose = onCleanup(async () => {
    unsubscribe();
    await core.dispose();
  });
  const call = async <K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>> => {
    const result = await dispatch(core.handlers, name, input, () => undefined);
    if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
    return result.value as CallResult<K>;
  };
  const online = (timeoutMs = 60_000) =>
    waitFor(
      () =>
        ids.every((id) => states.get(id)?.status === 'online' && (states.get(id)?.outlets.length ?? 0) > 0),
      `${ids.length} controllers online in the Core`,
      timeoutMs,
      5,
    );
  return { core, ids, states, call, when, online, dispose };
}

/** No outlet of these controllers waits for confirmation any more. */
export function settled(run: CoreRun, ids: readonly string[] = run.ids): boolean {
  return ids.every((id) => run.states.get(id)?.outlets.every((o) => o.pending === null) ?? false);
}
