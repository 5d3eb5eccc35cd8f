/**
 * The lab's configuration in the lab store (saved/lab-config.ts), its logic on SQLite in the fast loop:
 * two adapters on one file stand for two services. The store's keys go to the store and the rest to
 * config.json; a change is written whole at its end, refused whole when another service wrote
 * meanwhile or the store is gone (reads still answer); another service's write is noticed by `watch`;
 * one first configuration wins a race; a removal refused by a conflict keeps the controller's secret.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { MemoryStore } from '../../../src-main/core/kernel/ports';
import { openLabConfig, type LabConfigStore } from '../../../src-main/core/saved/lab-config';
import { ControllerRegistry } from '../../../src-main/core/saved/registry';
import { controllerAccount, MemorySecretStore } from '../../../src-main/secrets';
import { isPlugboardError } from '../../../src-main/shared/errors';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-lab-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const stores: LabStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

interface Service {
  store: LabStore;
  local: MemoryStore;
  config: LabConfigStore;
  logged: string[];
}

/** Two services on one new store file. */
async function twoServices(): Promise<[Service, Service]> {
  const file = path.join(mkdtempSync(path.join(scratch, 's-')), 'lab.sqlite');
  const open = async (name: string): Promise<Service> => {
    const store = await openSqliteStore(file, '0.0.0-test');
    stores.push(store);
    const local = new MemoryStore();
    const logged: string[] = [];
    const config = await openLabConfig(store, local, {
      log: (m) => logged.push(m),
      writtenBy: name,
      pollMs: 5,
    });
    return { store, local, config, logged };
  };
  return [await open('alpha'), await open('beta')];
}

/** Resolves at the next call of the store's watch listener. */
const nextNotice = (config: LabConfigStore) =>
  new Promise<void>((resolve) => {
    const stop = config.watch!(() => {
      stop();
      resolve();
    });
  });

const rows = (s: Service) =>
  s.store.db.selectFrom('lab_config').select(['key', 'value', 'written_by']).orderBy('key').execute();

/** A task that waits, inside its turn, until `release` is called; `entered` resolves once it is in. */
function gate() {
  let release!: () => void;
  let entered!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  const inside = new Promise<void>((resolve) => (entered = resolve));
  return { open, inside, release, entered };
}

describe("the lab's configuration in the lab store", () => {
  it("keeps the lab's keys in the store and the keychain journal in config.json; the other service reads them", async () => {
    const [alpha, beta] = await twoServices();
    const noticed = nextNotice(beta.config);
    await alpha.config.exclusive!(async () => {
      alpha.config.set('controllers', [{ id: 'c1', name: 'Bench A' }]);
      alpha.config.set('keychainJournal', ['controller:c1']);
      // Inside the change, its own writes are read back before they are written.
      expect(alpha.config.get('controllers', [])).toEqual([{ id: 'c1', name: 'Bench A' }]);
    });
    expect(await rows(alpha)).toEqual([
      { key: 'controllers', value: '[{"id":"c1","name":"Bench A"}]', written_by: 'alpha' },
    ]);
    expect(alpha.local.get('keychainJournal', null)).toEqual(['controller:c1']);
    expect(alpha.local.get('controllers', null)).toBeNull();
    expect(beta.config.get('keychainJournal', null)).toBeNull();
    await noticed;
    expect(beta.config.get('controllers', [])).toEqual([{ id: 'c1', name: 'Bench A' }]);
  });

  it('refuses a change whole when another service wrote meanwhile, and reads what that one wrote', async () => {
    const [alpha, beta] = await twoServices();
    await alpha.config.exclusive!(async () => alpha.config.set('groups', [{ id: 'g0' }]));
    const g = gate();
    const refused = alpha.config.exclusive!(async () => {
      alpha.config.set('controllers', [{ id: 'mine' }]);
      alpha.config.set('groups', [{ id: 'mine' }]);
      g.entered();
      await g.open;
    });
    await g.inside;
    await beta.config.exclusive!(async () => beta.config.set('groups', [{ id: 'theirs' }]));
    const heard = nextNotice(alpha.config);
    g.release();
    const error = await refused.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isPlugboardError(error) && error.code).toBe('STORE');
    expect((error as Error).message).toBe(
      "Another Plugboard service changed the lab's configuration while this change was being made, so nothing was changed.",
    );
    await heard;
    expect((await rows(alpha)).map((r) => [r.key, r.value])).toEqual([['groups', '[{"id":"theirs"}]']]);
    expect(alpha.config.get('groups', [])).toEqual([{ id: 'theirs' }]);
    expect(alpha.config.get('controllers', null)).toBeNull();
  });

  it('writes nothing of a change whose task fails', async () => {
    const [alpha] = await twoServices();
    await expect(
      alpha.config.exclusive!(async () => {
        alpha.config.set('settings', { pollIntervalMs: 1000 });
        throw new Error('refused half-way');
      }),
    ).rejects.toThrow('refused half-way');
    expect(await rows(alpha)).toEqual([]);
    expect(alpha.config.get('settings', null)).toBeNull();
  });

  it('answers reads from its copy when the store is gone, and refuses a change with a sentence', async () => {
    const [alpha, beta] = await twoServices();
    await alpha.config.exclusive!(async () => alpha.config.set('controllers', [{ id: 'c1' }]));
    // The store goes away during a change: nothing of it is written.
    const lost = alpha.config.exclusive!(async () => {
      alpha.config.set('controllers', [{ id: 'c1' }, { id: 'c2' }]);
      await alpha.store.close();
    });
    await expect(lost).rejects.toMatchObject({
      code: 'STORE',
      message: `Plugboard could not save the lab's configuration in the lab store ${alpha.store.where}, so nothing was changed.`,
    });
    expect(alpha.config.get('controllers', [])).toEqual([{ id: 'c1' }]);
    await expect(
      alpha.config.exclusive!(async () => alpha.config.set('controllers', [])),
    ).rejects.toMatchObject({
      code: 'STORE',
      message: `Plugboard could not read the lab's configuration from the lab store ${alpha.store.where}, so nothing was changed.`,
    });
    expect(alpha.config.get('controllers', [])).toEqual([{ id: 'c1' }]);
    expect((await rows(beta)).map((r) => r.value)).toEqual(['[{"id":"c1"}]']);
  });

  it('writes a set made outside a change as a change of its own', async () => {
    const [alpha, beta] = await twoServices();
    const noticed = nextNotice(beta.config);
    alpha.config.set('settings', { pollIntervalMs: 2000 });
    await noticed;
    expect(beta.config.get('settings', null)).toEqual({ pollIntervalMs: 2000 });
  });

  it('lets exactly one of two services write the first configuration; the other reads it', async () => {
    const [alpha, beta] = await twoServices();
    expect(alpha.config.empty()).toBe(true);
    const won = await Promise.all([
      alpha.config.seed({ controllers: [{ id: 'a' }], settings: { pollIntervalMs: 1000 } }),
      beta.config.seed({ controllers: [{ id: 'b' }] }),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = won[0] ? 'a' : 'b';
    for (const s of [alpha, beta]) {
      expect(s.config.empty()).toBe(false);
      expect(s.config.get('controllers', [])).toEqual([{ id: winner }]);
    }
    expect(await beta.config.seed({ controllers: [{ id: 'late' }] })).toBe(false);
  });

  it('keeps the secret of a controller whose removal another service refused by writing first', async () => {
    const [alpha, beta] = await twoServices();
    const g = gate();
    let holdReads = false;
    // The removal reads the secret first (a keychain that cannot answer refuses it before anything).
    class HeldKeychain extends MemorySecretStore {
      override async get(account: string): Promise<string | null> {
        if (holdReads) {
          g.entered();
          await g.open;
        }
        return super.get(account);
      }
    }
    const keychain = new HeldKeychain();
    const secrets = keychain;
    const registry = new ControllerRegistry({ store: alpha.config, secrets, log: () => undefined });
    const saved = await registry.add(
      { name: 'Bench A', url: 'http://192.0.2.7', auth: 'digest', user: 'admin' },
      'secret-1',
    );
    const account = controllerAccount(saved.id);
    expect(await keychain.get(account)).not.toBeNull();
    holdReads = true;
    const removal = registry.remove(saved.id);
    await g.inside;
    holdReads = false;
    await beta.config.exclusive!(async () => beta.config.set('groups', []));
    g.release();
    await expect(removal).rejects.toMatchObject({ code: 'STORE' });
    expect(registry.list().map((c) => c.id)).toEqual([saved.id]);
    expect(await keychain.get(account)).not.toBeNull();
    expect(await registry.secretFor(saved.id)).toBe('secret-1');
  });
});
