/** The bench's side of the emulator farm: fork it, start controllers, read and reset their statistics. */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import type { EmulatorOptions } from '../../src-main/emulator/index';
import { onCleanup, stopChild } from './cleanup';
import type { FarmReply, FarmRequest, FarmStats } from './farm-protocol';

type Pending = { resolve: (reply: FarmReply & { ok: true }) => void; reject: (error: Error) => void };
type Command = FarmRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class Farm {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly stop: () => Promise<void>;
  /** Base URLs of every controller started, in order. */
  readonly urls: string[] = [];

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (reply: FarmReply) => {
      const waiting = this.#pending.get(reply.id);
      if (!waiting) return;
      this.#pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(new Error(`emulator farm: ${reply.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const waiting of this.#pending.values()) {
        waiting.reject(new Error(`The emulator farm exited (${signal ?? code}) before answering.`));
      }
      this.#pending.clear();
    });
    this.stop = onCleanup(async () => {
      if (child.connected) await this.#send({ cmd: 'close' }).catch(() => undefined);
      await stopChild(child);
    });
  }

  /** Fork the farm (under the same tsx loader as this process) and wait until it is ready. */
  static async start(): Promise<Farm> {
    const child = fork(resolve(import.meta.dirname, 'farm.ts'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const farm = new Farm(child);
    await new Promise<void>((ready, fail) => {
      child.once('message', () => ready());
      child.once('exit', (code) => fail(new Error(`The emulator farm exited (${code}) while starting.`)));
    });
    return farm;
  }

  /** Start `count` more controllers with these options; returns their base URLs. */
  async add(count: number, options: Omit<EmulatorOptions, 'host' | 'port' | 'mdns'>): Promise<string[]> {
    const reply = await this.#send({ cmd: 'start', count, options });
    const urls = reply.urls ?? [];
    this.urls.push(...urls);
    return urls;
  }

  async stats(): Promise<FarmStats[]> {
    return (await this.#send({ cmd: 'stats' })).stats ?? [];
  }

  async reset(): Promise<void> {
    await this.#send({ cmd: 'reset' });
  }

  async setLatency(ms: number): Promise<void> {
    await this.#send({ cmd: 'latency', ms });
  }

  /** The child's process id (for RSS comparisons). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  #send(command: Command): Promise<FarmReply & { ok: true }> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#child.send({ ...command, id } as FarmRequest, (error) => {
        if (!error) return;
        this.#pending.delete(id);
        reject(error);
      });
    });
  }
}
