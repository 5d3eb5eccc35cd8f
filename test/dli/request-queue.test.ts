/** The per-controller queue: one task at a time, interactive ahead of background, cancellable while waiting. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { RequestQueue, queueFor } from '../../src-main/dli/request-queue';

function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('RequestQueue', () => {
  it('runs one task at a time and lets interactive work overtake queued background polls', async () => {
    const queue = new RequestQueue();
    const order: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const first = gate();
    const task = (name: string, wait?: Promise<void>) => async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      order.push(name);
      await wait;
      running -= 1;
      return name;
    };
    const all = [
      queue.run(task('poll-1', first.promise), 'background'),
      queue.run(task('poll-2'), 'background'),
      queue.run(task('poll-3'), 'background'),
      queue.run(task('click-1'), 'interactive'),
      queue.run(task('click-2'), 'interactive'),
    ];
    expect(queue.pending).toBe(4);
    first.open();
    expect(await Promise.all(all)).toEqual(['poll-1', 'poll-2', 'poll-3', 'click-1', 'click-2']);
    expect(order).toEqual(['poll-1', 'click-1', 'click-2', 'poll-2', 'poll-3']);
    expect(maxRunning).toBe(1);
  });

  it('drops a cancelled task from the queue without running it', async () => {
    const queue = new RequestQueue();
    const first = gate();
    let ranCancelled = false;
    const running = queue.run(() => first.promise, 'interactive');
    const controller = new AbortController();
    const cancelled = queue.run(async () => (ranCancelled = true), 'interactive', controller.signal);
    controller.abort(new Error('stop'));
    await expect(cancelled).rejects.toThrow('stop');
    expect(queue.pending).toBe(0);
    first.open();
    await running;
    expect(ranCancelled).toBe(false);
    expect(queue.busy).toBe(false);
  });

  it('runs a queued task in the async context of its caller, not of the task that let it start', async () => {
    const queue = new RequestQueue();
    const caller = new AsyncLocalStorage<string>();
    const first = gate();
    const seen: (string | undefined)[] = [];
    const task = (wait?: Promise<void>) => async () => {
      seen.push(caller.getStore());
      await wait;
    };
    const runs = [
      caller.run('window', () => queue.run(task(first.promise), 'background')),
      caller.run('command line', () => queue.run(task(), 'interactive')),
    ];
    first.open();
    await Promise.all(runs);
    expect(seen).toEqual(['window', 'command line']);
  });

  it('gives every client of one origin the same queue', () => {
    expect(queueFor('http://127.0.0.1:1')).toBe(queueFor('http://127.0.0.1:1'));
    expect(queueFor('http://127.0.0.1:1')).not.toBe(queueFor('http://127.0.0.1:2'));
  });
});
