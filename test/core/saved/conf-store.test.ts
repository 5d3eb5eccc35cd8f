import { existsSync, mkdirSync, utimesSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConfStore } from '../../../src-main/core/saved/conf-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-conf-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openConfStore', () => {
  it('persists to config.json in the given folder, readable by a second opener', async () => {
    const store = openConfStore(dir);
    expect(store.get('controllers', [])).toEqual([]);
    store.set('controllers', [{ id: 'c1', name: 'Bench A' }]);
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual({
      controllers: [{ id: 'c1', name: 'Bench A' }],
    });
    expect(openConfStore(dir).get('controllers', [])).toEqual([{ id: 'c1', name: 'Bench A' }]);
  });

  it('takes keys literally, dots included', () => {
    const store = openConfStore(dir);
    store.set('meter.history', 1);
    expect(store.get('meter.history', 0)).toBe(1);
    expect(store.get('meter', 'absent')).toBe('absent');
  });

  it('forgets a key set to undefined instead of throwing', () => {
    const store = openConfStore(dir);
    store.set('settings', { theme: 'dark' });
    store.set('settings', undefined);
    expect(store.get('settings', 'default')).toBe('default');
  });

  it('takes over a lock left by a process that died, once it is older than the stale limit', async () => {
    const store = openConfStore(dir);
    const lock = join(dir, 'config.json.lock');
    mkdirSync(lock);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    await store.exclusive!(async () => {
      expect(existsSync(lock)).toBe(true);
      store.set('controllers', [{ id: 'c1' }]);
    });
    expect(existsSync(lock)).toBe(false);
    expect(store.get('controllers', [])).toEqual([{ id: 'c1' }]);
  });

  it('runs locked changes one at a time, and a failed one does not block the next', async () => {
    const store = openConfStore(dir);
    const steps: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = () => {};
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const first = store.exclusive!(async () => {
      steps.push('first starts');
      started();
      await gate;
      steps.push('first ends');
      throw new Error('first failed');
    });
    const second = store.exclusive!(async () => {
      steps.push('second runs');
      return 2;
    });
    await firstStarted;
    // Give the second every chance to overtake while the first holds the lock.
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual(['first starts']);
    release();
    await expect(first).rejects.toThrow('first failed');
    expect(await second).toBe(2);
    expect(steps).toEqual(['first starts', 'first ends', 'second runs']);
  });

  it('tells watchers when someone else rewrote the file', async () => {
    const store = openConfStore(dir);
    const heard = new Promise<void>((resolve) => {
      const stop = store.watch!(() => {
        stop();
        resolve();
      });
    });
    openConfStore(dir).set('controllers', [{ id: 'c9' }]);
    await heard;
    expect(store.get('controllers', [])).toEqual([{ id: 'c9' }]);
  });
});
