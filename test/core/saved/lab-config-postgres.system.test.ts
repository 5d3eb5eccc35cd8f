/**
 * The lab's configuration on PostgreSQL (the run's own cluster, a database per test), through the Core
 * as `plugboard serve` opens it (openSavedCore, two config folders on one database, the connection
 * string in a file): a controller added on one service reaches the other within its poll, with its
 * alias, tags, groups and settings; of two changes at once one is refused whole; a folder this version
 * wrote moves in whole; two services starting at
 * once: one moves in; a newer schema is still refused; the database gone: reads answer, a change is
 * refused with a sentence, and it works again once the database is back; a standby whose keychain lacks
 * a controller's secret says so at start.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ControllerSummary, EventName, Group, Settings } from '../../../src-preload/contract';
import { openPostgresStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { SCHEMA_VERSION } from '../../../src-main/core/database/migrations';
import type { Core } from '../../../src-main/core/index';
import { MemoryStore } from '../../../src-main/core/kernel/ports';
import { openLabConfig } from '../../../src-main/core/saved/lab-config';
import { openSavedCore } from '../../../src-main/core/saved-core';
import { MemorySecretStore } from '../../../src-main/secrets';
import { sharedPostgresDatabase } from '../../system/shared-postgres';
import { assertBuilt, cleanUpServe, serveBuilt } from '../../serve/built-serve';
import { cleanUp, emulator } from '../harness';
import { writtenByThisVersion } from './lab-config-kit';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-pg-config-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cores: Core[] = [];
const closing: LabStore[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((store) => store.close()));
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
  await cleanUp();
  await cleanUpServe();
});

interface Lab {
  url: string;
  env: NodeJS.ProcessEnv;
  /** A service of the lab on a config folder of its own (or `dir`). */
  service(options?: { dir?: string; secrets?: MemorySecretStore }): Promise<Service>;
}

interface Service {
  core: Core;
  dir: string;
  logged: string[];
  call<T>(name: string, input: unknown): Promise<T>;
  /** Resolves with the first payload of `name` that `accept` takes. */
  next<T>(name: EventName, accept: (payload: T) => boolean): Promise<T>;
}

/** A new database, named through a file as an operator names it. */
async function lab(): Promise<Lab> {
  const url = await sharedPostgresDatabase();
  const urlFile = path.join(mkdtempSync(path.join(scratch, 'url-')), 'database');
  writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
  const env = { PLUGBOARD_DATABASE_URL_FILE: urlFile };
  return {
    url,
    env,
    async service(options = {}) {
      const dir = options.dir ?? mkdtempSync(path.join(scratch, 'config-'));
      const logged: string[] = [];
      const core = await openSavedCore({
        shell: 'test',
        version: '0.0.0-test',
        log: (m) => logged.push(m),
        configDir: dir,
        env,
        secrets: options.secrets ?? new MemorySecretStore(),
      });
      cores.push(core);
      return {
        core,
        dir,
        logged,
        async call<T>(name: string, input: unknown) {
          const result = await core.handlers[name as 'controllers/list'](input as never);
          return result as T;
        },
        next<T>(name: EventName, accept: (payload: T) => boolean) {
          return new Promise<T>((resolve) => {
            const stop = core.subscribe((event, payload) => {
              if (event !== name || !accept(payload as T)) return;
              stop();
              resolve(payload as T);
            });
          });
        },
      };
    },
  };
}

/** Run `sql` as the cluster's owner, on its `postgres` database. */
async function asOwner(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const databaseOf = (url: string) => new URL(url).pathname.slice(1);

describe("the lab's configuration on PostgreSQL", () => {
  it('a controller added on one service reaches the other with its alias, tags, groups and settings', async () => {
    const place = await lab();
    const [leader, standby] = [await place.service(), await place.service()];
    const emu = await emulator();
    const heard = standby.next<ControllerSummary[]>('controllers/changed', (list) => list.length === 1);
    const added = await leader.call<ControllerSummary>('controllers/add', {
      url: emu.url,
      name: 'Bench A',
      auth: { kind: 'digest', user: 'admin', password: '1234' },
      alias: 'bench-a',
      tags: ['rack-7'],
    });
    expect(await heard).toEqual([added]);
    const grouped = standby.next<Group[]>('groups/changed', (groups) => groups.length === 1);
    const limits = standby.next<Settings>('settings/changed', (s) => s.meterThresholds.length === 1);
    const group = await leader.call<Group>('groups/save', {
      name: 'Rack 7',
      members: [{ controllerId: added.id, outlet: 1 }],
    });
    const threshold = { controllerId: added.id, key: 'buses.0.voltage', min: 110, max: 125 };
    await leader.call('settings/set', { meterThresholds: [threshold] });
    expect(await grouped).toEqual([group]);
    expect((await limits).meterThresholds).toEqual([threshold]);
    expect(await standby.call('controllers/list', {})).toEqual([
      expect.objectContaining({ id: added.id, alias: 'bench-a', tags: ['rack-7'], hasSecret: true }),
    ]);
    // Each machine's keychain journal stays in its own config.json; nothing of it is in the database.
    const config = (s: Service) => JSON.parse(readFileSync(path.join(s.dir, 'config.json'), 'utf8'));
    expect(config(leader)).toEqual({ keychainJournal: [] });
    expect(existsSync(path.join(standby.dir, 'config.json'))).toBe(false);
  });

  it('moves a config folder this version wrote into the store whole, at its first start', async () => {
    const place = await lab();
    const dir = mkdtempSync(path.join(scratch, 'written-'));
    const secrets = new MemorySecretStore();
    const before = await writtenByThisVersion(dir, secrets);
    const first = await place.service({ dir, secrets });
    expect(first.logged).toContainEqual(
      expect.stringMatching(
        /^moved 2 controller\(s\), 2 group\(s\) and the settings from config\.json into the lab store PostgreSQL database "t_\w+" on 127\.0\.0\.1:\d+; config\.json is left as it was, and a copy is kept as config\.json\.imported-/,
      ),
    );
    expect(readdirSync(dir).filter((f) => f.startsWith('config.json.imported-'))).toHaveLength(1);
    // Another machine's service, on an empty folder, has all of it.
    const other = await place.service({ secrets });
    expect(await other.call('controllers/list', {})).toEqual(before.controllers);
    expect(await other.call('groups/list', {})).toEqual(before.groups);
    expect(await other.call('settings/get', {})).toEqual(before.settings);
  });

  it('two services starting at once on an empty store: one moves its folder in, the other uses it', async () => {
    const place = await lab();
    const dirs = [mkdtempSync(path.join(scratch, 'a-')), mkdtempSync(path.join(scratch, 'b-'))];
    const written = [
      await writtenByThisVersion(dirs[0]!, new MemorySecretStore()),
      await writtenByThisVersion(dirs[1]!, new MemorySecretStore()),
    ];
    const services = await Promise.all(dirs.map((dir) => place.service({ dir })));
    const moved = services.map((s) => s.logged.some((line) => line.startsWith('moved 2 controller(s)')));
    expect(moved.filter(Boolean)).toHaveLength(1);
    const winner = moved[0] ? 0 : 1;
    for (const s of services)
      expect((await s.call<ControllerSummary[]>('controllers/list', {})).map((c) => c.id)).toEqual(
        written[winner]!.controllers.map((c) => c.id),
      );
    expect(services[1 - winner]!.logged).toContainEqual(
      expect.stringMatching(
        /^The lab's configuration from the lab store .* is used; this folder's config\.json was left as it is \(2 of its controllers differ from the lab's\)\.$/,
      ),
    );
  });

  it('two changes at once on two services: one is written, the other refused whole', async () => {
    const place = await lab();
    const open = async () => {
      const store = await openPostgresStore(place.url, '0.0.0-test');
      closing.push(store);
      return openLabConfig(store, new MemoryStore(), { log: () => undefined });
    };
    const [alpha, beta] = [await open(), await open()];
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = alpha.exclusive!(async () => {
      alpha.set('groups', [{ id: 'alpha' }]);
      alpha.set('controllers', [{ id: 'alpha' }]);
      entered();
      await held;
    });
    await inside;
    await beta.exclusive!(async () => beta.set('groups', [{ id: 'beta' }]));
    release();
    await expect(first).rejects.toMatchObject({ code: 'STORE', detail: { configConflict: true } });
    const third = await open();
    expect(third.get('groups', null)).toEqual([{ id: 'beta' }]);
    expect(third.get('controllers', null)).toBeNull();
  });

  it('still refuses a store a newer Plugboard wrote, before anything of the configuration is read', async () => {
    const place = await lab();
    const store = await openPostgresStore(place.url, '1.0.0');
    await store.db
      .updateTable('plugboard_schema')
      .set({ version: SCHEMA_VERSION + 1, written_by: '7.0.0' })
      .execute();
    await store.close();
    await expect(place.service()).rejects.toMatchObject({
      code: 'STORE',
      message: expect.stringContaining(`schema version ${SCHEMA_VERSION + 1} (written by Plugboard 7.0.0)`),
    });
  });

  it('the database gone: reads answer, a change is refused with a sentence, and works once it is back', async () => {
    const place = await lab();
    const service = await place.service();
    const emu = await emulator();
    const added = await service.call<ControllerSummary>('controllers/add', {
      url: emu.url,
      name: 'Bench A',
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
    const name = databaseOf(place.url);
    await asOwner(
      place.url,
      `ALTER DATABASE ${name} ALLOW_CONNECTIONS false; SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
    );
    try {
      expect(await service.call('controllers/list', {})).toEqual([added]);
      await expect(
        service.call('controllers/update', { id: added.id, name: 'Bench B' }),
      ).rejects.toMatchObject({
        code: 'STORE',
        message: expect.stringMatching(
          /^Plugboard could not read the lab's configuration from the lab store PostgreSQL database "t_\w+" on 127\.0\.0\.1:\d+, so nothing was changed\.$/,
        ),
      });
      expect(await service.call('controllers/list', {})).toEqual([added]);
    } finally {
      await asOwner(place.url, `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    const renamed = await service.call<ControllerSummary>('controllers/update', {
      id: added.id,
      name: 'Bench B',
    });
    expect(renamed.name).toBe('Bench B');
    const fresh = await place.service();
    expect(await fresh.call('controllers/list', {})).toEqual([renamed]);
  });

  it("a standby whose keychain lacks a controller's secret names it at start", async () => {
    assertBuilt();
    const place = await lab();
    const leader = await place.service();
    const emu = await emulator();
    await leader.call('controllers/add', {
      url: emu.url,
      name: 'Bench A',
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
    const standbyDir = mkdtempSync(path.join(scratch, 'standby-'));
    const credentials = path.join(standbyDir, 'credentials');
    mkdirSync(credentials, { mode: 0o700 });
    const standby = serveBuilt(
      ['--listen', 'api=127.0.0.1:0', '--config-dir', path.join(standbyDir, 'config')],
      {
        ...place.env,
        CREDENTIALS_DIRECTORY: credentials,
      },
    );
    // Its log, on stderr: the controller came from the store, its secret from nowhere on this machine.
    const said = await standby.errLine(/Bench A: its password or token is not available here\..*$/);
    expect(said[0]).toContain('Give it as the systemd credential plugboard.controller.');
  });
});
