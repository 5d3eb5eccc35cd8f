import { describe, expect, it } from 'vitest';
import { MemorySecretStore, controllerAccount } from '../../src-main/secrets';

describe('MemorySecretStore', () => {
  it('behaves like a keychain: set, read, overwrite, delete', async () => {
    const store = new MemorySecretStore();
    expect(await store.get('controller:a')).toBeNull();
    await store.set('controller:a', 'one');
    await store.set('controller:b', 'two');
    await store.set('controller:a', 'three');
    expect(await store.get('controller:a')).toBe('three');
    expect(await store.delete('controller:a')).toBe(true);
    expect(await store.delete('controller:a')).toBe(false);
    expect(await store.get('controller:a')).toBeNull();
    expect(await store.get('controller:b')).toBe('two');
    expect(store.size).toBe(1);
  });

  it('names controller accounts controller:<id>', () => {
    expect(controllerAccount('c1a2b3c4')).toBe('controller:c1a2b3c4');
  });
});
