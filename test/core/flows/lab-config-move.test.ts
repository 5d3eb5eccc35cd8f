/**
 * The one-time move of a config folder's controllers, groups and settings into the lab store (on SQLite
 * here: the same code PostgreSQL runs, lab-config-postgres.system.test.ts runs it there): once, whole,
 * config.json left as it was with a copy kept; a store that has a configuration is never merged with a
 * folder's, and the log says how many of the folder's controllers differ; two at once: one wins.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { moveConfigIn } from '../../../src-main/core/flows/lab-config-move';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { openLabConfig } from '../../../src-main/core/saved/lab-config';
import { MemorySecretStore } from '../../../src-main/secrets';
import { cleanUp, newCore } from '../harness';
import { writtenByThisVersion } from '../saved/lab-config-kit';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-config-move-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const stores: LabStore[] = [];
afterEach(cleanUp);
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

/** A service on the store `file` over the config folder `dir`: its configuration, moved in. */
async function start(file: string, dir: string, now = Date.now()) {
  const store = await openSqliteStore(file, '0.0.0-test');
  stores.push(store);
  const local = openConfStore(dir);
  const logged: string[] = [];
  const log = (m: string) => logged.push(m);
  const config = await openLabConfig(store, local, { log });
  const moved = await moveConfigIn(config, { store, local, dir, log, now });
  return { config, moved, logged };
}

const folder = (name: string) => mkdtempSync(path.join(scratch, `${name}-`));
const storeFile = () => path.join(folder('store'), 'lab.sqlite');
const backups = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('config.json.imported-'));

describe("the move of a config folder's configuration into the lab store", () => {
  it('moves everything a folder of this version holds, once, leaving config.json and a copy', async () => {
    const dir = folder('config');
    const secrets = new MemorySecretStore();
    const before = await writtenByThisVersion(dir, secrets);
    const file = storeFile();
    const first = await start(file, dir);
    expect(first.moved).toBe(true);
    expect(first.logged).toEqual([
      expect.stringMatching(
        /^moved 2 controller\(s\), 2 group\(s\) and the settings from config\.json into the lab store \S+lab\.sqlite; config\.json is left as it was, and a copy is kept as config\.json\.imported-\S+$/,
      ),
    ]);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(before.text);
    expect(backups(dir)).toHaveLength(1);
    expect(readFileSync(path.join(dir, backups(dir)[0]!), 'utf8')).toBe(before.text);

    // A Core on the store (another folder: nothing comes from this one's config.json) has the lab.
    const elsewhere = await start(file, folder('standby'));
    expect(elsewhere.moved).toBe(false);
    expect(elsewhere.logged).toEqual([]);
    const core = newCore({ store: elsewhere.config, secrets });
    expect(await core.ok('controllers/list', {})).toEqual(before.controllers);
    expect(await core.ok('groups/list', {})).toEqual(before.groups);
    expect(await core.ok('settings/get', {})).toEqual(before.settings);

    // Once: the next start on the folder moves nothing, says nothing, keeps no second copy.
    const again = await start(file, dir);
    expect(again).toMatchObject({ moved: false, logged: [] });
    expect(backups(dir)).toHaveLength(1);
  });

  it("uses the store's configuration over a folder whose controllers differ, and says how many", async () => {
    const file = storeFile();
    const lab = folder('lab');
    await writtenByThisVersion(lab, new MemorySecretStore());
    await start(file, lab);
    const other = folder('other');
    const mine = await writtenByThisVersion(other, new MemorySecretStore());
    const second = await start(file, other);
    expect(second.moved).toBe(false);
    expect(second.logged).toEqual([
      `The lab's configuration from the lab store ${file} is used; this folder's config.json was left as it is (2 of its controllers differ from the lab's).`,
    ]);
    expect(second.config.get('controllers', [])).not.toEqual(
      mine.controllers.map((c) => expect.objectContaining({ id: c.id })),
    );
    expect(readFileSync(path.join(other, 'config.json'), 'utf8')).toBe(mine.text);
    expect(backups(other)).toEqual([]);
  });

  it('lets one of two services starting at once move its folder in; the other uses it', async () => {
    const file = storeFile();
    const [a, b] = [folder('a'), folder('b')];
    const written = [
      await writtenByThisVersion(a, new MemorySecretStore()),
      await writtenByThisVersion(b, new MemorySecretStore()),
    ];
    const started = await Promise.all([start(file, a), start(file, b)]);
    expect(started.map((s) => s.moved).filter(Boolean)).toHaveLength(1);
    const winner = started[0]!.moved ? 0 : 1;
    for (const s of started) {
      const ids = s.config.get<{ id: string }[]>('controllers', []).map((c) => c.id);
      expect(ids).toEqual(written[winner]!.controllers.map((c) => c.id));
    }
    expect(started[1 - winner]!.logged).toEqual([expect.stringContaining('(2 of its controllers differ')]);
    expect(existsSync(path.join([a, b][1 - winner]!, 'config.json'))).toBe(true);
  });
});
