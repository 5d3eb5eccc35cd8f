import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ControllerSummary, Settings } from '../../../src-preload/model';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { ControllerRegistry, type ExternalChange } from '../../../src-main/core/saved/registry';
import { MemorySecretStore } from '../../../src-main/secrets';
import { child, together } from '../process-harness';
import { cleanUp, emulator, newCore, until } from '../harness';

/**
 * A running Plugboard hears of what another process (the CLI, the web shell, a second app) saves in the
 * shared config.json: the file is watched, and the registry's events say what changed.
 */

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-follow-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(cleanUp);

/** Another Plugboard process, run to the end: its secrets stay in its memory. */
async function other(args: string[]): Promise<Record<string, unknown>> {
  const [result] = await together([child(args, process.env, { keychain: false })]);
  return result!;
}

/** The next value `subscribe` hands out that passes `check`. */
function next<T>(
  subscribe: (listener: (value: T) => void) => void,
  check: (value: T) => boolean,
): Promise<T> {
  return new Promise((resolve) => subscribe((value) => check(value) && resolve(value)));
}

/** The keychain both processes share, as this test's Core sees it: every account holds the emulator's password. */
class SharedKeychain extends MemorySecretStore {
  override async get(): Promise<string> {
    return '1234';
  }
}

const names = (list: readonly ControllerSummary[]) => list.map((c) => c.name);

describe('following the shared settings file', () => {
  it('announces a controller another process added or removed, and never its own changes as foreign', async () => {
    const dir = mkdtempSync(path.join(scratch, 'registry-'));
    const external: ExternalChange[] = [];
    const listeners: ((change: ExternalChange) => void)[] = [];
    const registry = new ControllerRegistry({
      store: openConfStore(dir),
      secrets: new MemorySecretStore(),
      log: () => undefined,
      onExternalChange: (change) => {
        external.push(change);
        for (const listener of listeners) listener(change);
      },
    });
    const stop = registry.follow();
    try {
      const own = await registry.add({ name: 'Own', url: 'http://127.0.0.1:9100', auth: 'token' }, null);
      const added = next<ExternalChange>(
        (l) => listeners.push(l),
        (c) => names(c.after).includes('Ext-1'),
      );
      const result = (await other(['add', dir, 'Ext', '1'])) as { added: string[] };
      const change = await added;
      // The first foreign change is the other process's: this one's own add was not announced.
      expect(external[0]).toBe(change);
      expect(names(change.before)).toEqual(['Own']);
      expect(names(change.after)).toEqual(['Own', 'Ext-1']);
      expect(names(registry.list())).toEqual(['Own', 'Ext-1']);

      const removed = next<ExternalChange>(
        (l) => listeners.push(l),
        (c) => !names(c.after).includes('Ext-1'),
      );
      await other(['remove', dir, result.added[0]!]);
      expect((await removed).after.map((c) => c.id)).toEqual([own.id]);
    } finally {
      stop();
    }
  }, 60_000);

  it('starts polling a controller another process added, stops when it is removed, and takes its settings', async () => {
    const dir = mkdtempSync(path.join(scratch, 'core-'));
    const emu = await emulator();
    const h = newCore({ store: openConfStore(dir), secrets: new SharedKeychain() });
    await h.core.ready;

    const result = (await other(['add', dir, 'Ext', '1', emu.url])) as { added: string[] };
    const id = result.added[0]!;
    const online = await until(h, id, (s) => s.status === 'online');
    expect(online.id).toBe(id);
    expect(names(h.all('controllers/changed').at(-1)!)).toEqual(['Ext-1']);

    const settled = next<Settings>(
      (l) => h.core.subscribe((name, payload) => name === 'settings/changed' && l(payload as Settings)),
      (s) => s.pollIntervalMs === 7000,
    );
    await other(['settings', dir, JSON.stringify({ pollIntervalMs: 7000 })]);
    expect((await settled).pollIntervalMs).toBe(7000);
    expect((await h.ok<Settings>('settings/get', {})).pollIntervalMs).toBe(7000);

    const gone = next<ControllerSummary[]>(
      (l) =>
        h.core.subscribe(
          (name, payload) => name === 'controllers/changed' && l(payload as ControllerSummary[]),
        ),
      (list) => list.length === 0,
    );
    await other(['remove', dir, id]);
    await gone;
    // Its session is gone too: there is nothing left to refresh.
    const refresh = await h.call('controllers/refresh', { id });
    expect(refresh).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  }, 60_000);
});
