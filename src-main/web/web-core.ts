/**
 * The Core behind the web shell. One Core per config folder: when another Plugboard runs the Core for
 * the folder (`plugboard serve`, the desktop app, another web shell), the web shell uses that Core
 * through its socket, its calls recorded as this OS user at the web door; otherwise it takes the Core
 * lock, runs the Core and serves the Core's socket for the others, as `plugboard serve` does. `--demo`
 * (and a throwaway run) touches no config folder, so it takes no lock.
 */
import { type Core, createCore, osUserName, MemoryStore } from '../core/index';
import { keychainOrMemory, openSavedCore } from '../core/saved-core';
import { plugboardConfigDir } from '../core/config';
import { openConfStore } from '../core/store';
import { createDesk, type DeskBase } from '../desk';
import { attachOrLock, coreSocketPath } from '../link';
import { MemorySecretStore, type SecretStore } from '../secrets';
import { listenCoreSocket, type CoreSocket } from '../serve/core-socket';
import type { Logger } from '../shared/logging';

/** What the web shell uses of a Core. */
export type WebCore = Pick<Core, 'handlersAs' | 'subscribe' | 'setVisible'>;

/**
 * A desk over the shell's Core, so a browser window on this computer also sees the labs it attaches to
 * (kept in the folder's config.json, their sessions in the keychain); a throwaway run keeps them in memory.
 */
function deskOver(
  core: DeskBase,
  dir: string | null,
  secrets: SecretStore,
  log: Logger,
): WebCore & { dispose(): Promise<void> } {
  return createDesk({
    core,
    store: dir ? openConfStore(dir) : new MemoryStore(),
    secrets,
    log,
    user: osUserName(),
  });
}

export interface OpenedWebCore {
  core: WebCore;
  /** A line for the person who started the shell (null: nothing to say). */
  note: string | null;
  /** Resolves with a sentence if the Core goes away under the shell: it must stop. */
  gone: Promise<string>;
  close(): Promise<void>;
}

export interface WebCoreOptions {
  demo: boolean;
  ephemeral: boolean;
  version: string;
  /** Default: plugboardConfigDir(). */
  configDir?: string;
}

/** How long links through the Core's socket get to finish their calls when the shell stops. */
const SOCKET_GRACE_MS = 5_000;

/** A Core the caller owns (a test's, or `plugboard serve`'s): used as it is, never disposed here. */
export function borrowedCore(core: Core): OpenedWebCore {
  return { core, note: null, gone: new Promise(() => undefined), close: async () => undefined };
}

export async function openWebCore(options: WebCoreOptions, log: Logger): Promise<OpenedWebCore> {
  if (options.demo || options.ephemeral) return throwawayCore(options, log);
  const dir = options.configDir ?? plugboardConfigDir();
  let stop: (reason: string) => void = () => undefined;
  const gone = new Promise<string>((resolve) => (stop = resolve));
  const slot = await attachOrLock(dir, 'web', (error) =>
    stop(
      `The Core lock was lost (${error.message}): the web shell stops, so that two Cores never run at once.`,
    ),
  );
  if (slot.link) {
    const { link } = slot;
    const who = osUserName();
    void link.closed.then(() =>
      stop('The Plugboard that runs the Core for this config folder stopped, so the web shell stops too.'),
    );
    const desk = deskOver(
      {
        handlersAs: () => link.handlersAs({ door: 'web', who }),
        subscribe: (sink) => link.subscribe(sink),
        // The Core's own process decides what it polls.
        setVisible: () => undefined,
        dispose: () => link.close(),
      },
      dir,
      await keychainOrMemory(log),
      log,
    );
    return {
      core: desk,
      note: `Another Plugboard runs the Core for ${dir}: this window uses it (through ${coreSocketPath(dir)}).`,
      gone,
      close: () => desk.dispose(),
    };
  }
  const { lock } = slot;
  let core: Core | null = null;
  let desk: ReturnType<typeof deskOver> | null = null;
  let socket: CoreSocket | null = null;
  const close = async () => {
    await socket?.close(SOCKET_GRACE_MS);
    await (desk ?? core)?.dispose();
    await lock.release();
  };
  try {
    const secrets = await keychainOrMemory(log);
    core = await openSavedCore({ shell: 'web', version: options.version, log, configDir: dir, secrets });
    socket = await listenCoreSocket(core, coreSocketPath(dir), log, { holdsLock: () => lock.held });
    desk = deskOver(core, dir, secrets, log);
  } catch (error) {
    await close();
    throw error;
  }
  return { core: desk, note: null, gone, close };
}

async function throwawayCore(options: WebCoreOptions, log: Logger): Promise<OpenedWebCore> {
  const core = createCore({
    shell: 'web',
    version: options.version,
    store: new MemoryStore(),
    secrets: new MemorySecretStore(),
    dataDir: null,
    visible: false,
    log,
  });
  if (options.demo) {
    try {
      await core.handlers['demo/start']({});
    } catch (error) {
      log('The demo controllers did not start', error);
    }
  }
  const desk = deskOver(core, null, new MemorySecretStore(), log);
  return { core: desk, note: null, gone: new Promise(() => undefined), close: () => desk.dispose() };
}
