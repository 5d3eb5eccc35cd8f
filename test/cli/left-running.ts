/**
 * What a command left running when it said it was done. The built `plugboard` exits once `runCli`
 * resolves, so a timer or socket it forgot would go unnoticed there; run in this process, it would go on
 * polling a unit or writing into the next test. What is created while the command runs is attributed to
 * it (AsyncLocalStorage), and what is still there once it resolved is named:
 *
 * - a socket (TCP, TLS or local: undici's to a unit, the Core link's) not destroyed. The keychain's
 *   D-Bus connection is libsecret's own, outside Node;
 * - a timer still pending and ref'd, and any other handle (file watcher, child process, signal, UDP)
 *   still open. Unref'd timers are not counted: undici keeps one shared clock for its timeouts, started
 *   by whichever request came first, and it keeps no process alive. Nor are immediates: one runs at the
 *   loop's next turn (the tail of a socket closing, say), it is not left waiting.
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** Resources seen through async hooks (sockets are followed through their channel instead). */
const WATCHED = new Set(['Timeout', 'UDPWRAP', 'PROCESSWRAP', 'FSEVENTWRAP', 'STATWATCHER', 'SIGNALWRAP']);

interface Resource {
  type: string;
  /** The run that created it. */
  run: object;
  /** Whether it still keeps the event loop alive. */
  keepsAlive: () => boolean;
}

const current = new AsyncLocalStorage<object>();
const live = new Map<number, Resource>();
const sockets = new Map<Socket, object>();
const hook = createHook({
  init(id, type, _trigger, resource) {
    if (!WATCHED.has(type)) return;
    const run = current.getStore();
    if (!run) return;
    const handle = resource as { hasRef?: () => boolean };
    live.set(id, { type, run, keepsAlive: () => handle.hasRef?.() ?? true });
  },
  destroy(id) {
    live.delete(id);
  },
});
subscribe('net.client.socket', (message) => {
  const run = current.getStore();
  if (run) sockets.set((message as { socket: Socket }).socket, run);
});
let running = 0;

/**
 * Run `work` and name what it created that is still running once it settled and the destroy events of
 * what it stopped were delivered: a handle closes in the loop's close phase, after this turn's
 * immediates, and its destroy event is then queued as a native immediate, which runs before the
 * script's immediates of the next turn.
 */
export async function whatIsLeftRunning<T>(work: () => Promise<T>): Promise<{ value: T; left: string[] }> {
  const run = {};
  if (running++ === 0) hook.enable();
  try {
    const value = await current.run(run, work);
    for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    const left = [...live.values()].filter((r) => r.run === run && r.keepsAlive()).map((r) => r.type);
    for (const [socket, owner] of sockets)
      if (owner === run && !socket.destroyed)
        left.push(`socket to ${socket.remoteAddress ?? 'a local socket'}:${socket.remotePort ?? ''}`);
    return { value, left };
  } finally {
    for (const [id, resource] of live) if (resource.run === run) live.delete(id);
    for (const [socket, owner] of sockets) if (owner === run) sockets.delete(socket);
    if (--running === 0) hook.disable();
  }
}
