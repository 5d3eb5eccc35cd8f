/**
 * One request in flight per controller: their CPUs are weak and answer concurrent requests badly.
 * Interactive work (a person clicked) goes ahead of queued background polls; different controllers
 * never wait for each other. Queues are shared by every client of the same origin.
 */
import { AsyncResource } from 'node:async_hooks';
import type { Priority } from './types';

interface Waiting {
  priority: Priority;
  start: () => void;
}

export class RequestQueue {
  #busy = false;
  readonly #waiting: Waiting[] = [];

  /** Tasks waiting (not counting the one running). */
  get pending(): number {
    return this.#waiting.length;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** Run `task` alone; rejects with the signal's reason if cancelled while waiting. */
  run<T>(task: () => Promise<T>, priority: Priority, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        priority,
        // Started by whichever request finished before it: run in the context of the caller who asked
        // (AsyncLocalStorage), so what the task creates is the caller's, not that other request's.
        start: AsyncResource.bind(() => {
          signal?.removeEventListener('abort', onAbort);
          this.#busy = true;
          const settle = (): void => {
            this.#busy = false;
            this.#next();
          };
          let running: Promise<T>;
          try {
            running = task();
          } catch (error) {
            running = Promise.reject(error);
          }
          running.then(
            (value) => {
              settle();
              resolve(value);
            },
            (error: unknown) => {
              settle();
              reject(error);
            },
          );
        }),
      };
      const onAbort = (): void => {
        const at = this.#waiting.indexOf(entry);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#enqueue(entry);
      if (!this.#busy) this.#next();
    });
  }

  #enqueue(entry: Waiting): void {
    if (entry.priority === 'background') {
      this.#waiting.push(entry);
      return;
    }
    const firstBackground = this.#waiting.findIndex((w) => w.priority === 'background');
    if (firstBackground < 0) this.#waiting.push(entry);
    else this.#waiting.splice(firstBackground, 0, entry);
  }

  #next(): void {
    this.#waiting.shift()?.start();
  }
}

// Kept for the life of the process (a few bytes per controller address ever used), so two clients of
// the same controller can never end up with two queues.
const shared = new Map<string, RequestQueue>();

/** The queue of one controller, by origin (`https://host:port`). */
export function queueFor(origin: string): RequestQueue {
  let queue = shared.get(origin);
  if (!queue) {
    queue = new RequestQueue();
    shared.set(origin, queue);
  }
  return queue;
}
