/** Measurement 13's side of its emulator child: fork it, start N controllers on 127.0.0.10 upwards, stop. */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { onCleanup, stopChild } from './cleanup';
import type { LabReply, LabRequest } from './m13-protocol';

type Ok = LabReply & { ok: true };
type Command = LabRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class LabChild {
  readonly #child: ChildProcess;
  readonly #pending = new Map<number, { resolve: (r: Ok) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  readonly stop: () => Promise<void>;

  private constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (reply: LabReply) => {
      const waiting = this.#pending.get(reply.id);
      if (!waiting) return;
      this.#pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(new Error(`emulator child: ${reply.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const waiting of this.#pending.values())
        waiting.reject(new Error(`The emulator child exited (${signal ?? code}) before answering.`));
      this.#pending.clear();
    });
    this.stop = onCleanup(async () => {
      if (child.connected) await this.#send({ cmd: 'close' }).catch(() => undefined);
      await stopChild(child);
    });
  }

  static async start(): Promise<LabChild> {
    const child = fork(resolve(import.meta.dirname, 'm13-lab-child.ts'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const lab = new LabChild(child);
    await new Promise<void>((ready, fail) => {
      child.once('message', () => ready());
      child.once('exit', (code) => fail(new Error(`The emulator child exited (${code}) while starting.`)));
    });
    return lab;
  }

  /** Start `count` controllers (replacing any before), each answering after `latencyMs`; their URLs and login. */
  async controllers(
    count: number,
    latencyMs = 0,
  ): Promise<{ urls: string[]; user: string; password: string }> {
    const reply = await this.#send({ cmd: 'start', count, latencyMs });
    return { urls: reply.urls ?? [], user: reply.user ?? '', password: reply.password ?? '' };
  }

  /** Requests every controller has answered so far, summed. */
  async requests(): Promise<number> {
    return (await this.#send({ cmd: 'requests' })).requests ?? 0;
  }

  #send(command: Command): Promise<Ok> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#child.send({ ...command, id } as LabRequest, (error) => {
        if (!error) return;
        this.#pending.delete(id);
        reject(error);
      });
    });
  }
}
