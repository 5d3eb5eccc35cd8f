import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { child as spawnChild, keyring as ownKeyring, together, type Keyring } from '../process-harness';

/**
 * Several real Plugboard processes (the registry over conf, as the CLI and the web shell run it) share
 * one settings folder and one real Secret Service. Before the lock, 20 adds from 10 processes saved 2,
 * and 6 processes removing 12 controllers brought 9 of them back.
 */

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-processes-'));
let keyring: Keyring;
const child = (args: string[]) => spawnChild(args, keyring.env);

// Each test has a keychain service of its own, so it sees only the secrets its processes stored.
beforeEach(() => {
  keyring = ownKeyring(scratch);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Inspection {
  controllers: { id: string; name: string; hasSecret: boolean; secret: string | null }[];
  accounts: string[];
  journal: unknown;
}

async function inspect(dir: string): Promise<Inspection> {
  return (await child(['inspect', dir]).result) as unknown as Inspection;
}

/** Every saved controller has its own secret, and the keychain holds nothing else. */
function expectConsistent(state: Inspection): void {
  for (const c of state.controllers) {
    expect(c.hasSecret, c.name).toBe(true);
    expect(c.secret, c.name).toBe(`secret of ${c.name}`);
  }
  expect(state.accounts).toEqual(state.controllers.map((c) => `controller:${c.id}`).sort());
  expect(state.journal).toEqual([]);
}

describe('processes sharing config.json and the keychain', () => {
  it('ten processes adding at once save every controller, each with its secret, and no orphan secret', async () => {
    const dir = path.join(scratch, 'adds');
    const results = await together(
      Array.from({ length: 10 }, (_, i) => child(['add', dir, `p${i + 1}`, '2'])),
    );
    for (const result of results) expect(result).toMatchObject({ errors: [] });
    const state = await inspect(dir);
    expect(state.controllers).toHaveLength(20);
    expect(state.controllers.map((c) => c.name).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => [`p${i + 1}-1`, `p${i + 1}-2`])
        .flat()
        .sort(),
    );
    expectConsistent(state);
  }, 180_000);

  it('processes removing at once (while others add) remove every controller for good', async () => {
    const dir = path.join(scratch, 'removals');
    const [seeded] = await together([child(['add', dir, 'old', '12'])]);
    const ids = (seeded as { added: string[] }).added;
    expect(ids).toHaveLength(12);
    const removers = Array.from({ length: 6 }, (_, i) =>
      child(['remove', dir, ids.slice(i * 2, i * 2 + 2).join(',')]),
    );
    const adders = [child(['add', dir, 'new-a', '1']), child(['add', dir, 'new-b', '1'])];
    const results = await together([...removers, ...adders]);
    for (const result of results) expect(result).toMatchObject({ errors: [] });
    const state = await inspect(dir);
    expect(state.controllers.map((c) => c.name).sort()).toEqual(['new-a-1', 'new-b-1']);
    expectConsistent(state);
  }, 180_000);

  it('a process that dies between the keychain and the file leaves no controller without its secret; the next change sweeps its secret and takes over its lock', async () => {
    const dir = path.join(scratch, 'crash');
    const dying = child(['crash-add', dir, 'lost']);
    await dying.ready;
    dying.go();
    await expect(dying.result).rejects.toThrow(/printed no result/);
    const orphaned = await inspect(dir);
    expect(orphaned.controllers).toEqual([]);
    expect(orphaned.accounts).toHaveLength(1);
    expect(orphaned.journal).toEqual(orphaned.accounts);
    // It died holding the lock. Past the stale limit (10 s, here by ageing the lock) the next writer takes over.
    const lock = path.join(dir, 'config.json.lock');
    expect(existsSync(lock)).toBe(true);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    const [result] = await together([child(['add', dir, 'next', '1'])]);
    expect(result).toMatchObject({ errors: [] });
    const state = await inspect(dir);
    expect(state.controllers.map((c) => c.name)).toEqual(['next-1']);
    expectConsistent(state);
  }, 120_000);

  it('processes changing different settings at once keep every change', async () => {
    const dir = path.join(scratch, 'settings');
    const changes = [
      { pollIntervalMs: 7000 },
      { temperatureUnit: 'F' },
      { theme: 'dark' },
      { trayFavourites: [{ controllerId: 'c1', outlet: 2 }] },
    ];
    const results = await together(changes.map((change) => child(['settings', dir, JSON.stringify(change)])));
    expect(results.every((r) => !('crashed' in r))).toBe(true);
    const saved = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as { settings: unknown };
    expect(saved.settings).toMatchObject(Object.assign({}, ...changes) as object);
  }, 120_000);
});
