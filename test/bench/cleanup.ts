/**
 * Everything the bench starts (emulators, child processes, browsers, temp folders) registers how to stop
 * it here, so a normal end, an error and Ctrl-C all leave nothing running.
 */
import type { ChildProcess } from 'node:child_process';

type Stopper = () => Promise<void> | void;

const stoppers = new Set<Stopper>();
let stopping: Promise<void> | null = null;

/** Register a stopper; returns a function that runs it now (once) and unregisters it. */
export function onCleanup(stop: Stopper): () => Promise<void> {
  let done = false;
  const run = async (): Promise<void> => {
    if (done) return;
    done = true;
    stoppers.delete(wrapped);
    await stop();
  };
  const wrapped: Stopper = run;
  stoppers.add(wrapped);
  // Started while everything is being stopped (Ctrl-C during a start): stop it right away.
  if (stopping) void run().catch(() => undefined);
  return run;
}

/** True once Ctrl-C (or a kill) asked the bench to stop: start nothing new. */
export function isStopping(): boolean {
  return stopping !== null;
}

/** Run every registered stopper, newest first; errors are reported, never thrown. */
export function cleanupAll(): Promise<void> {
  stopping ??= (async () => {
    for (const stop of [...stoppers].reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error('bench: cleanup failed:', error instanceof Error ? error.message : error);
      }
    }
  })();
  return stopping;
}

/** Stop a child we forked or spawned: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), graceMs).unref());
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Ctrl-C or a kill: clean up, then exit with the conventional code. */
export function installSignalHandlers(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping everything it started…`);
      void cleanupAll().finally(() => process.exit(code));
    });
  }
}
