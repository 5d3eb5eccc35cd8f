import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConfStore } from '../../src-main/core/conf-store';

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
});
