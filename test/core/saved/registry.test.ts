import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { ControllerRegistry, type ControllerRegistryOptions } from '../../../src-main/core/saved/registry';
import { MemoryStore, type KeyValueStore } from '../../../src-main/core/kernel/ports';
import { CONTROLLER_PALETTE } from '../../../src-main/core/saved/colour-palette';
import { PlugboardError } from '../../../src-main/shared/errors';
import { MemorySecretStore, type SecretStore } from '../../../src-main/secrets';
import { keychainSecret } from '../harness';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-registry-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface StoreKind {
  name: string;
  /** A fresh empty store, optionally starting from this JSON file content. */
  make(initial?: string): { store: KeyValueStore; raw(): string };
}

const kinds: StoreKind[] = [
  {
    name: 'MemoryStore',
    make(initial) {
      const store = new MemoryStore();
      if (initial)
        for (const [key, value] of Object.entries(JSON.parse(initial) as Record<string, unknown>))
          store.set(key, value);
      return {
        store,
        raw: () =>
          JSON.stringify({ controllers: store.get('controllers', null), groups: store.get('groups', null) }),
      };
    },
  },
  {
    name: 'conf (real file, locked)',
    make(initial) {
      const cwd = mkdtempSync(path.join(scratch, 'conf-'));
      if (initial) writeFileSync(path.join(cwd, 'config.json'), initial);
      const store = openConfStore(cwd);
      return { store, raw: () => readFileSync(path.join(cwd, 'config.json'), 'utf8') };
    },
  },
];

async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<PlugboardError> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    if (error instanceof PlugboardError) return error;
    throw error;
  }
  throw new Error('expected a PlugboardError');
}

describe.each(kinds)('ControllerRegistry over $name', (kind) => {
  let secrets: MemorySecretStore;
  let raw: () => string;
  let registry: ControllerRegistry;
  let logged: string[];
  let controllerEvents: number;
  let groupEvents: number;

  function build(initial?: string, overrides: Partial<ControllerRegistryOptions> = {}) {
    const made = kind.make(initial);
    raw = made.raw;
    logged = [];
    controllerEvents = 0;
    groupEvents = 0;
    // Keep the same keychain across rebuilds that pass it back in, so tests can inspect it.
    if (!(overrides.secrets instanceof MemorySecretStore)) secrets = new MemorySecretStore();
    registry = new ControllerRegistry({
      store: made.store,
      secrets,
      log: (message) => logged.push(message),
      onControllersChanged: () => controllerEvents++,
      onGroupsChanged: () => groupEvents++,
      ...overrides,
    });
    return made.store;
  }

  beforeEach(() => {
    build();
  });

  const digest = (name: string, url = 'http://192.168.0.100') => ({
    name,
    url,
    auth: 'digest' as const,
    user: 'admin',
  });

  describe('adding', () => {
    it('saves a controller with a normalised address and keeps its secret out of the store', async () => {
      const added = await registry.add(
        { ...digest('Bench A', '  HTTP://PDU-3.Lab:80/restapi/relay/?x=1#y  ') },
        's3cret-pw',
      );
      expect(added).toMatchObject({
        name: 'Bench A',
        url: 'http://pdu-3.lab',
        auth: 'digest',
        user: 'admin',
        hasSecret: true,
        fingerprint: null,
        demo: false,
        order: 0,
      });
      expect(added.id).toMatch(/^c[0-9a-f]{8}$/);
      expect(registry.list()).toEqual([added]);
      // The keychain holds the secret bound to the place it was saved for (registry-envelope.ts).
      expect(JSON.parse((await secrets.get(`controller:${added.id}`))!)).toEqual({
        v: 1,
        secret: 's3cret-pw',
        for: { origin: 'http://pdu-3.lab', auth: 'digest', user: 'admin', fingerprint: null },
      });
      expect(await registry.secretFor(added.id)).toBe('s3cret-pw');
      expect(raw()).toContain('pdu-3.lab');
      expect(raw()).not.toContain('s3cret-pw');
      expect(controllerEvents).toBe(1);
    });

    it.each([
      ['https://10.0.0.5:443/', 'https://10.0.0.5'],
      ['https://10.0.0.5:8443/foo/', 'https://10.0.0.5:8443'],
      ['192.168.0.100', 'http://192.168.0.100'],
      ['192.168.0.100:8080/', 'http://192.168.0.100:8080'],
      ['http://[fe80::1]:8080/restapi/', 'http://[fe80::1]:8080'],
    ])('normalises %s to %s', async (url, expected) => {
      expect((await registry.add(digest('X', url), null)).url).toBe(expected);
    });

    it.each([
      ['ftp://192.168.0.100', /must start with http:\/\/ or https:\/\//],
      ['http://admin:1234@192.168.0.100', /Leave the user name and password out of the address/],
      ['   ', /address is empty/],
      ['http://exa mple.com', /is not an address/],
    ])('refuses the address %j', async (url, message) => {
      const error = await rejection(registry.add(digest('X', url), 'pw'));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
      expect(registry.list()).toEqual([]);
      expect(secrets.size).toBe(0);
    });

    it('refuses a name already used, whatever its case', async () => {
      await registry.add(digest('Bench A'), null);
      const error = await rejection(registry.add(digest('  bench a '), 'pw'));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toBe('A controller named "Bench A" is already saved: choose another name.');
      expect(registry.list()).toHaveLength(1);
      expect(secrets.size).toBe(0);
    });

    it('refuses empty or overlong names and missing user names', async () => {
      expect((await rejection(registry.add(digest('  '), null))).message).toMatch(/name is empty/);
      expect((await rejection(registry.add(digest('x'.repeat(65)), null))).message).toMatch(/longer than 64/);
      expect(
        (await rejection(registry.add({ name: 'A', url: 'http://a', auth: 'basic' }, null))).message,
      ).toMatch(/basic login needs a user name/);
      expect(
        (await rejection(registry.add({ name: 'A', url: 'http://a', auth: 'digest', user: 'ad min' }, null)))
          .message,
      ).toMatch(/spaces or colons/);
      expect((await rejection(registry.add(digest('A'), ''))).message).toMatch(/password or token is empty/);
    });

    it('stores tokens without a user name', async () => {
      const added = await registry.add(
        { name: 'T', url: 'http://t', auth: 'token', user: 'ignored' },
        'tok-123',
      );
      expect(added).toMatchObject({ auth: 'token', user: '', hasSecret: true });
      expect(await registry.secretFor(added.id)).toBe('tok-123');
    });

    it('gives each new controller a distinct palette colour unless one is chosen', async () => {
      const colours: string[] = [];
      for (let i = 0; i < CONTROLLER_PALETTE.length; i++)
        colours.push((await registry.add(digest(`C${i}`), null)).colour);
      expect(new Set(colours).size).toBe(CONTROLLER_PALETTE.length);
      expect(colours).toEqual([...CONTROLLER_PALETTE]);
      const chosen = await registry.add({ ...digest('Chosen'), colour: '#ABCDEF' }, null);
      expect(chosen.colour).toBe('#abcdef');
      expect((await rejection(registry.add({ ...digest('Bad'), colour: 'red' }, null))).message).toMatch(
        /must look like #3b82f6/,
      );
    });

    it('reuses a colour freed by a removed controller', async () => {
      const a = await registry.add(digest('A'), null);
      await registry.add(digest('B'), null);
      await registry.remove(a.id);
      expect((await registry.add(digest('C'), null)).colour).toBe(CONTROLLER_PALETTE[0]);
    });

    it('normalises a pinned fingerprint and refuses a malformed one', async () => {
      const hex = 'ab'.repeat(32);
      const added = await registry.add({ ...digest('TLS', 'https://10.0.0.9'), fingerprint: hex }, null);
      expect(added.fingerprint).toBe(Array(32).fill('AB').join(':'));
      expect(
        (await rejection(registry.add({ ...digest('TLS2'), fingerprint: 'abc' }, null))).message,
      ).toMatch(/SHA-256 fingerprint/);
    });

    it('marks demo controllers', async () => {
      expect((await registry.add({ ...digest('Demo'), demo: true }, null)).demo).toBe(true);
    });

    it('saves nothing when the keychain refuses the secret', async () => {
      const failing: SecretStore = {
        get: async () => null,
        set: async () => {
          throw new PlugboardError('INTERNAL', 'No Secret Service is running.');
        },
        delete: async () => false,
        accounts: async () => [],
      };
      build(undefined, { secrets: failing });
      const error = await rejection(registry.add(digest('A'), 'pw'));
      expect(error.message).toBe('No Secret Service is running.');
      expect(registry.list()).toEqual([]);
    });

    it('forgets the just-stored secret when the store cannot be written', async () => {
      const inner = build();
      const broken: KeyValueStore = {
        get: (key, fallback) => inner.get(key, fallback),
        set: () => {
          throw new Error('disk full');
        },
      };
      build(undefined, { store: broken, secrets });
      await expect(registry.add(digest('A'), 'pw')).rejects.toThrow('disk full');
      expect(secrets.size).toBe(0);
    });

    it('lets only one of two simultaneous adds claim a name', async () => {
      const results = await Promise.allSettled([
        registry.add(digest('Same'), 'a'),
        registry.add(digest('same'), 'b'),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(registry.list()).toHaveLength(1);
      expect(secrets.size).toBe(1);
    });
  });

  describe('finding, ordering', () => {
    it('finds by id or by case-insensitive name', async () => {
      const a = await registry.add(digest('Bench A'), null);
      expect(registry.find(a.id)).toEqual(a);
      expect(registry.find('BENCH a')).toEqual(a);
      expect(registry.find('nope')).toBeNull();
      expect(registry.get(a.id)).toEqual(a);
      expect(registry.get('nope')).toBeNull();
      expect(() => registry.getOrThrow('nope')).toThrow(/No saved controller/);
    });

    it('reorders: listed first in the given order, the rest after, orders renumbered', async () => {
      const [a, b, c] = [
        await registry.add(digest('A'), null),
        await registry.add(digest('B'), null),
        await registry.add(digest('C'), null),
      ];
      const reordered = await registry.reorder([c.id, a.id]);
      expect(reordered.map((x) => x.name)).toEqual(['C', 'A', 'B']);
      expect(registry.list().map((x) => [x.name, x.order])).toEqual([
        ['C', 0],
        ['A', 1],
        ['B', 2],
      ]);
      await expect(registry.reorder([b.id, b.id])).rejects.toThrow(/twice/);
      await expect(registry.reorder(['ghost'])).rejects.toThrow(/not a saved controller/);
    });
  });

  describe('queueing', () => {
    /** A keychain whose next call waits until `release()`: a change that is half-way. */
    function slowKeychain() {
      const inner = new MemorySecretStore();
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const store: SecretStore = {
        get: async (account) => (await gate, inner.get(account)),
        set: async (account, secret) => (await gate, inner.set(account, secret)),
        delete: async (account) => (await gate, inner.delete(account)),
        accounts: () => inner.accounts(),
      };
      return { store, release };
    }

    it('runs reorder, saveGroup and removeGroup after the adds, updates and removals asked for before them', async () => {
      const slow = slowKeychain();
      build(undefined, { secrets: slow.store });
      const a = await registry.add(digest('A'), null);
      const b = await registry.add(digest('B'), null);
      const g = await registry.saveGroup({ name: 'G', members: [{ controllerId: b.id, outlet: 1 }] });
      // Each of these waits for the keychain...
      const adding = registry.add(digest('C'), 'pw');
      const removing = registry.remove(a.id);
      const renaming = registry.update(b.id, { name: 'B2' }, 'new');
      // ...and these, asked for later, must not overtake them.
      const reordering = registry.reorder([b.id]);
      const grouping = registry.saveGroup({ name: 'H', members: [{ controllerId: a.id, outlet: 2 }] });
      const ungrouping = registry.removeGroup(g.id);
      slow.release();
      const c = await adding;
      await removing;
      await renaming;
      // The reorder saw C (added before it) and kept it; the rename was not undone.
      expect((await reordering).map((x) => x.name)).toEqual(['B2', 'C']);
      expect(registry.list().map((x) => [x.name, x.order])).toEqual([
        ['B2', 0],
        ['C', 1],
      ]);
      expect(await registry.secretFor(c.id)).toBe('pw');
      // A was removed before the group naming it was saved.
      expect((await rejection(grouping)).message).toMatch(/which is not saved/);
      await ungrouping;
      expect(registry.listGroups()).toEqual([]);
    });
  });

  describe('updating', () => {
    it('renames, moves, recolours and keeps the secret when none is given, bound to its place until a confirmed move', async () => {
      const a = await registry.add(digest('A'), 'pw1');
      const updated = await registry.update(a.id, {
        name: 'Rack 2',
        url: 'https://10.1.1.1/',
        colour: '#123456',
      });
      expect(updated).toMatchObject({
        id: a.id,
        name: 'Rack 2',
        url: 'https://10.1.1.1',
        colour: '#123456',
        hasSecret: true,
      });
      expect(registry.list()).toEqual([updated]);
      // Kept, but still bound to the old address: not handed out for the new one.
      const refused = await rejection(registry.secretFor(a.id));
      expect(refused).toMatchObject({ code: 'AUTH_FAILED', detail: { confirmSecret: true } });
      expect(refused.message).toContain('http://192.168.0.100');
      expect(await registry.storedSecret(a.id)).toMatchObject({
        secret: 'pw1',
        place: { url: 'http://192.168.0.100' },
      });
      // A confirmed move binds it to the new place.
      await registry.update(a.id, {}, undefined, { rebindSecret: true });
      expect(await registry.secretFor(a.id)).toBe('pw1');
      await expect(registry.secretFor(a.id, { ...updated, url: 'https://10.1.1.2' })).rejects.toThrow(
        /saved for https:\/\/10\.1\.1\.1/,
      );
    });

    it('replaces or forgets the secret', async () => {
      const a = await registry.add(digest('A'), 'pw1');
      await registry.update(a.id, {}, 'pw2');
      expect(await registry.secretFor(a.id)).toBe('pw2');
      const cleared = await registry.update(a.id, {}, null);
      expect(cleared.hasSecret).toBe(false);
      expect(await secrets.get(`controller:${a.id}`)).toBeNull();
      expect(await registry.secretFor(a.id)).toBeNull();
    });

    it('switches to a token login, dropping the user name, and back only with a user', async () => {
      const a = await registry.add(digest('A'), 'pw');
      expect(await registry.update(a.id, { auth: 'token' }, 'tok')).toMatchObject({
        auth: 'token',
        user: '',
      });
      expect((await rejection(registry.update(a.id, { auth: 'digest' }))).message).toMatch(
        /needs a user name/,
      );
      expect(await registry.update(a.id, { auth: 'basic', user: 'ops' })).toMatchObject({
        auth: 'basic',
        user: 'ops',
      });
    });

    it('pins and unpins a fingerprint', async () => {
      const a = await registry.add(digest('A', 'https://x'), null);
      expect((await registry.update(a.id, { fingerprint: 'cd'.repeat(32) })).fingerprint).toMatch(/^CD:CD/);
      expect((await registry.update(a.id, { fingerprint: null })).fingerprint).toBeNull();
    });

    it('refuses a rename onto another controller but allows changing its own case', async () => {
      const a = await registry.add(digest('A'), null);
      await registry.add(digest('B'), null);
      expect((await rejection(registry.update(a.id, { name: 'b' }))).message).toBe(
        'A controller named "B" is already saved: choose another name.',
      );
      expect((await registry.update(a.id, { name: 'a' })).name).toBe('a');
    });

    it('reports NOT_FOUND for an unknown id', async () => {
      expect((await rejection(registry.update('nope', { name: 'x' }))).code).toBe('NOT_FOUND');
    });

    it('moves a controller to a new address without a secret until the new one is stored', async () => {
      const inner = new MemorySecretStore();
      let refuse = false;
      const fileWhenStoring: unknown[] = [];
      const watching: SecretStore = {
        get: (account) => inner.get(account),
        set: async (account, secret) => {
          // What the file would say if the process died while the keychain stored this secret.
          fileWhenStoring.push(registry.list());
          if (refuse) throw new PlugboardError('INTERNAL', 'The keychain is locked.');
          return inner.set(account, secret);
        },
        delete: (account) => inner.delete(account),
        accounts: () => inner.accounts(),
      };
      build(undefined, { secrets: watching });
      const a = await registry.add(digest('A', 'http://10.0.0.1'), 'old');
      fileWhenStoring.length = 0;
      const moved = await registry.update(a.id, { url: 'http://10.0.0.2' }, 'new');
      expect(fileWhenStoring).toEqual([[{ ...a, url: 'http://10.0.0.2', hasSecret: false }]]);
      expect(moved).toEqual({ ...a, url: 'http://10.0.0.2', hasSecret: true });
      expect(await registry.secretFor(a.id)).toBe('new');
      // A keychain that refuses the next secret: the controller and its secret are put back.
      refuse = true;
      const error = await rejection(registry.update(a.id, { url: 'http://10.0.0.3', user: 'ops' }, 'newer'));
      expect(error.message).toBe('The keychain is locked.');
      expect(registry.list()).toEqual([moved]);
      expect(await registry.secretFor(a.id)).toBe('new');
    });

    it('binds a bare secret saved by 0.1 to the record as it is at the first read, and saves it as an envelope', async () => {
      const a = await registry.add(digest('A', 'http://10.0.0.1'), null);
      // As 0.1 left it: the record claims a secret, the keychain holds it bare.
      const store = build(raw(), { secrets });
      store.set('controllers', [{ ...a, hasSecret: true }]);
      await secrets.set(`controller:${a.id}`, 'legacy-pw');
      expect(await registry.secretFor(a.id)).toBe('legacy-pw');
      expect(JSON.parse((await secrets.get(`controller:${a.id}`))!)).toEqual({
        v: 1,
        secret: 'legacy-pw',
        for: { origin: 'http://10.0.0.1', auth: 'digest', user: 'admin', fingerprint: null },
      });
      // From now on a record moved outside Plugboard's checks gets nothing.
      store.set('controllers', [{ ...a, hasSecret: true, url: 'http://10.0.0.66' }]);
      expect(await rejection(registry.secretFor(a.id))).toMatchObject({
        code: 'AUTH_FAILED',
        detail: { confirmSecret: true, changed: 'the address (10.0.0.1 → 10.0.0.66)' },
      });
    });

    it('restores the old secret when the store cannot be written', async () => {
      const inner = build();
      let failWrites = false;
      const flaky: KeyValueStore = {
        get: (key, fallback) => inner.get(key, fallback),
        set: (key, value) => {
          if (failWrites) throw new Error('disk full');
          inner.set(key, value);
        },
      };
      build(undefined, { store: flaky, secrets });
      const a = await registry.add(digest('A'), 'old');
      failWrites = true;
      await expect(registry.update(a.id, { name: 'B' }, 'new')).rejects.toThrow('disk full');
      expect(await keychainSecret(secrets, `controller:${a.id}`)).toBe('old');
      expect(registry.list()[0]!.name).toBe('A');
    });
  });

  describe('removing', () => {
    it('removes the controller, its secret and its outlets in groups', async () => {
      const a = await registry.add(digest('A'), 'pw');
      const b = await registry.add(digest('B'), 'pw');
      const mixed = await registry.saveGroup({
        name: 'Bench 3',
        members: [
          { controllerId: a.id, outlet: 1 },
          { controllerId: b.id, outlet: 2 },
        ],
      });
      await registry.saveGroup({ name: 'Only A', members: [{ controllerId: a.id, outlet: 5 }] });
      groupEvents = 0;
      const result = await registry.remove(a.id);
      expect(result).toEqual({ removed: a, groupsChanged: true });
      expect(registry.list().map((c) => c.name)).toEqual(['B']);
      expect(await secrets.get(`controller:${a.id}`)).toBeNull();
      expect(await keychainSecret(secrets, `controller:${b.id}`)).toBe('pw');
      expect(registry.listGroups()).toEqual([
        { id: mixed.id, name: 'Bench 3', members: [{ controllerId: b.id, outlet: 2 }] },
      ]);
      expect(groupEvents).toBe(1);
      expect(raw()).not.toContain(a.id);
    });

    it('says whether groups changed', async () => {
      const a = await registry.add(digest('A'), null);
      expect((await registry.remove(a.id)).groupsChanged).toBe(false);
    });

    it('keeps the controller when the keychain cannot be reached, and sweeps a secret it could not delete later', async () => {
      const inner = new MemorySecretStore();
      let keychain: 'up' | 'down' | 'refuses deletes' = 'up';
      const refuse = () => {
        throw new PlugboardError('INTERNAL', 'No Secret Service is running.');
      };
      const flaky: SecretStore = {
        get: async (account) => (keychain === 'down' ? refuse() : inner.get(account)),
        set: (account, secret) => inner.set(account, secret),
        delete: async (account) => (keychain === 'up' ? inner.delete(account) : refuse()),
        accounts: () => inner.accounts(),
      };
      const store = build(undefined, { secrets: flaky });
      const withSecret = await registry.add(digest('A'), 'pw');
      const without = await registry.add(digest('B'), null);
      keychain = 'down';
      expect((await rejection(registry.remove(withSecret.id))).message).toMatch(/No Secret Service/);
      expect(registry.get(withSecret.id)).not.toBeNull();
      // Nothing secret to leak: removal goes ahead.
      await registry.remove(without.id);
      expect(registry.get(without.id)).toBeNull();
      // The record goes first; the secret the keychain would not delete is kept in the journal...
      keychain = 'refuses deletes';
      await registry.remove(withSecret.id);
      expect(registry.list()).toEqual([]);
      expect(await inner.accounts()).toEqual([`controller:${withSecret.id}`]);
      // (B's account too: the keychain was down when B went, so nobody could check it was empty.)
      expect(store.get('keychainJournal', [])).toEqual([
        `controller:${without.id}`,
        `controller:${withSecret.id}`,
      ]);
      // ...and swept once the keychain deletes again.
      keychain = 'up';
      expect(await registry.sweepSecrets()).toEqual([
        `controller:${without.id}`,
        `controller:${withSecret.id}`,
      ]);
      expect(await inner.accounts()).toEqual([]);
      expect(store.get('keychainJournal', 'none')).toEqual([]);
    });

    it('reports NOT_FOUND for an unknown id', async () => {
      expect((await rejection(registry.remove('nope'))).code).toBe('NOT_FOUND');
    });
  });

  describe('groups', () => {
    it('creates, replaces, lists and removes groups with unique names', async () => {
      const a = await registry.add(digest('A'), null);
      const b = await registry.add(digest('B'), null);
      const g = await registry.saveGroup({
        name: ' Bench 3 ',
        members: [
          { controllerId: a.id, outlet: 1 },
          { controllerId: b.id, outlet: 8 },
          { controllerId: a.id, outlet: 1 },
        ],
      });
      expect(g).toEqual({
        id: expect.stringMatching(/^g[0-9a-f]{8}$/),
        name: 'Bench 3',
        members: [
          { controllerId: a.id, outlet: 1 },
          { controllerId: b.id, outlet: 8 },
        ],
      });
      const h = await registry.saveGroup({ name: 'Scope', members: [{ controllerId: b.id, outlet: 3 }] });
      await expect(
        registry.saveGroup({ name: 'bench 3', members: [{ controllerId: a.id, outlet: 2 }] }),
      ).rejects.toThrow('A group named "Bench 3" already exists: choose another name.');
      const replaced = await registry.saveGroup({
        id: g.id,
        name: 'BENCH 3',
        members: [{ controllerId: b.id, outlet: 4 }],
      });
      expect(replaced).toEqual({ id: g.id, name: 'BENCH 3', members: [{ controllerId: b.id, outlet: 4 }] });
      expect(registry.listGroups()).toEqual([replaced, h]);
      await registry.removeGroup(g.id);
      expect(registry.listGroups()).toEqual([h]);
      await expect(registry.removeGroup(g.id)).rejects.toThrow(/No group has the id/);
      expect(groupEvents).toBe(4);
    });

    it('refuses unknown controllers, bad outlet numbers, empty groups and unknown ids', async () => {
      const a = await registry.add(digest('A'), null);
      const err = (fn: () => Promise<unknown>) => rejection(fn);
      expect(
        (await err(() => registry.saveGroup({ name: 'G', members: [{ controllerId: 'ghost', outlet: 1 }] })))
          .message,
      ).toMatch(/names controller "ghost", which is not saved/);
      expect(
        (await err(() => registry.saveGroup({ name: 'G', members: [{ controllerId: a.id, outlet: 0 }] })))
          .message,
      ).toMatch(/0 is not an outlet number of A \(outlets are numbered from 1\)/);
      expect(
        (await err(() => registry.saveGroup({ name: 'G', members: [{ controllerId: a.id, outlet: 1.5 }] })))
          .code,
      ).toBe('BAD_INPUT');
      expect((await err(() => registry.saveGroup({ name: 'G', members: [] }))).message).toMatch(
        /has no outlets/,
      );
      expect(
        (await err(() => registry.saveGroup({ name: '', members: [{ controllerId: a.id, outlet: 1 }] })))
          .message,
      ).toMatch(/group name is empty/);
      expect(
        (
          await err(() =>
            registry.saveGroup({ id: 'gnope', name: 'G', members: [{ controllerId: a.id, outlet: 1 }] }),
          )
        ).code,
      ).toBe('NOT_FOUND');
      expect(registry.listGroups()).toEqual([]);
    });

    it('returns a group by id, with its members, and NOT_FOUND for an unknown id', async () => {
      const a = await registry.add(digest('A'), null);
      const g = await registry.saveGroup({ name: 'G', members: [{ controllerId: a.id, outlet: 2 }] });
      expect(registry.getGroupOrThrow(g.id)).toEqual(g);
      expect(registry.getGroupOrThrow(g.id).members).toEqual([{ controllerId: a.id, outlet: 2 }]);
      const missing = await rejection(() => registry.getGroupOrThrow('gnope'));
      expect(missing.code).toBe('NOT_FOUND');
      expect(missing.message).toBe('No group has the id "gnope"; it may have been removed.');
    });
  });

  describe('hand-edited or corrupted contents', () => {
    const good = {
      id: 'c1',
      name: 'Good',
      url: 'http://10.0.0.1/',
      auth: 'digest',
      user: 'admin',
      hasSecret: false,
      fingerprint: null,
      colour: '#3b82f6',
      order: 1,
      demo: false,
    };

    it('drops unusable entries with a logged reason and repairs cosmetic ones', () => {
      build(
        JSON.stringify({
          controllers: [
            good,
            { ...good, id: 'c2', name: 'Bad URL', url: 'gopher://x' },
            { ...good, id: 'c3', name: '' },
            { ...good, id: 'c1', name: 'Same id' },
            { ...good, id: 'c4', name: 'GOOD' },
            { ...good, id: 'c5', name: 'Bad auth', auth: 'ntlm' },
            'not even an object',
            {
              id: 'c6',
              name: 'Sparse',
              url: 'https://10.0.0.6:8443/x',
              auth: 'token',
              user: 'x',
              colour: 'blue',
              order: 'first',
              fingerprint: 'zz',
            },
            // A wildcard is no topic a unit publishes to: read as none, the controller kept.
            { ...good, id: 'c7', name: 'First', order: 0, mqttTopic: 'dli/#' },
          ],
          groups: [
            {
              id: 'g1',
              name: 'Mixed',
              members: [
                { controllerId: 'c1', outlet: 1 },
                { controllerId: 'c2', outlet: 2 },
              ],
            },
            { id: 'g2', name: 'Gone', members: [{ controllerId: 'c5', outlet: 1 }] },
            { id: 'g3', name: 'Bad outlet', members: [{ controllerId: 'c1', outlet: 0 }] },
            { id: 'g4', name: 'mixed', members: [{ controllerId: 'c1', outlet: 3 }] },
          ],
        }),
      );
      expect(registry.list()).toEqual([
        { ...good, id: 'c7', name: 'First', url: 'http://10.0.0.1', order: 0, mqttTopic: null },
        { ...good, url: 'http://10.0.0.1', mqttTopic: null },
        {
          id: 'c6',
          name: 'Sparse',
          url: 'https://10.0.0.6:8443',
          auth: 'token',
          user: '',
          hasSecret: false,
          fingerprint: null,
          colour: CONTROLLER_PALETTE[0],
          order: Number.MAX_SAFE_INTEGER,
          demo: false,
          mqttTopic: null,
        },
      ]);
      expect(registry.listGroups()).toEqual([
        { id: 'g1', name: 'Mixed', members: [{ controllerId: 'c1', outlet: 1 }] },
      ]);
      const log = logged.join('\n');
      expect(log).toMatch(
        /dropped saved controller #2 \("Bad URL"\): url The controller address must start with http/,
      );
      expect(log).toMatch(/dropped saved controller #3: name is empty/);
      expect(log).toMatch(/#4 \("Same id"\): its id c1 is used twice/);
      expect(log).toMatch(/#5 \("GOOD"\): the name is used twice/);
      expect(log).toMatch(/#6 \("Bad auth"\): auth must be digest, basic or token/);
      expect(log).toMatch(/dropped saved controller #7/);
      expect(log).toMatch(/saved group #1 \("Mixed"\) names outlets of controllers that are not saved/);
      expect(log).toMatch(/dropped saved group #2 \("Gone"\): it has no outlets left/);
      expect(log).toMatch(/dropped saved group #3 \("Bad outlet"\)/);
      expect(log).toMatch(/dropped saved group #4 \("mixed"\): its id or name is used twice/);
      // Each problem is logged once, however often the list is read.
      const count = logged.length;
      registry.list();
      registry.listGroups();
      expect(logged.length).toBe(count);
    });

    it('treats a non-list as empty and keeps working', async () => {
      build(JSON.stringify({ controllers: { oops: true }, groups: 'nope' }));
      expect(registry.list()).toEqual([]);
      expect(registry.listGroups()).toEqual([]);
      expect(logged.join('\n')).toMatch(/"controllers" is not a list/);
      const added = await registry.add(digest('Fresh'), null);
      expect(registry.list()).toEqual([added]);
    });

    it('rewrites a clean list on the next change', async () => {
      build(JSON.stringify({ controllers: [good, { ...good, id: 'bad', url: 'mailto:x' }] }));
      const added = await registry.add(digest('New'), null);
      expect(added.order).toBe(1);
      expect(raw()).not.toContain('mailto');
      expect(registry.list().map((c) => [c.name, c.order])).toEqual([
        ['Good', 0],
        ['New', 1],
      ]);
    });
  });
});
