import { flushSync } from 'svelte';
import { describe, expect, test } from 'vitest';
import type { ActivityEntry, ControllerSummary, Result } from '../../src-preload/model';
import { ActivityFeed } from '../../src-renderer/lib/state/activity-feed.svelte';
import { AppState, DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { Discovery } from '../../src-renderer/lib/state/discovery.svelte';
import { snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

const entry = (id: number): ActivityEntry => ({
  id,
  time: 1_700_000_000_000 + id,
  controllerId: 'bench-a',
  controllerName: 'Bench A',
  outlet: 1,
  action: `action ${id}`,
  source: 'window',
  who: 'alice',
  result: 'ok',
  error: null,
});

/** Let promises settle, then let Svelte apply what changed. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 0));
  flushSync();
}

describe('ActivityFeed', () => {
  test('listens only while read, loads the log and keeps events that arrive meanwhile, newest first', async () => {
    const backend = new TestBackend();
    let release: (r: Result<ActivityEntry[]>) => void = () => undefined;
    backend.answer('activity/list', () => new Promise((resolve) => (release = resolve)));
    const feed = new ActivityFeed(backend.api);
    expect(backend.listening('activity/added')).toBe(0);

    let seen: number[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        seen = feed.entries.map((e) => e.id);
      });
    });
    flushSync();
    expect(backend.listening('activity/added')).toBe(1);
    backend.emit('activity/added', entry(4));
    release({ ok: true, value: [entry(1), entry(2), entry(3), entry(4)] });
    await settle();
    expect(seen).toEqual([4, 3, 2, 1]);
    backend.emit('activity/added', entry(5));
    flushSync();
    expect(seen).toEqual([5, 4, 3, 2, 1]);

    stop();
    await settle();
    expect(backend.listening('activity/added')).toBe(0);
  });

  test('a refusal counted again replaces the entry shown, where it is, instead of adding a row', async () => {
    const backend = new TestBackend();
    backend.answer('activity/list', () => ({ ok: true, value: [entry(1)] }));
    const feed = new ActivityFeed(backend.api);
    let seen: [number, number | undefined][] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        seen = feed.entries.map((e) => [e.id, e.count]);
      });
    });
    await settle();
    const refused = { ...entry(2), action: 'refused', result: 'error' as const, count: 1 };
    backend.emit('activity/added', refused);
    backend.emit('activity/added', entry(3));
    backend.emit('activity/added', { ...refused, count: 20_100 });
    flushSync();
    expect(seen).toEqual([
      [3, undefined],
      [2, 20_100],
      [1, undefined],
    ]);
    stop();
  });

  test('coming back after nobody looked shows what happened meanwhile', async () => {
    const backend = new TestBackend();
    let log = [entry(1), entry(2)];
    backend.answer('activity/list', () => ({ ok: true, value: log }));
    const feed = new ActivityFeed(backend.api);
    const watch = () => {
      const seen = { ids: [] as number[] };
      const stop = $effect.root(() => {
        $effect(() => {
          seen.ids = feed.entries.map((e) => e.id);
        });
      });
      return { seen, stop };
    };
    const first = watch();
    await settle();
    expect(first.seen.ids).toEqual([2, 1]);
    first.stop();
    await settle();
    // Entries 3 and 4 happen while the Activity panel is closed: no event reaches the window.
    log = [entry(1), entry(2), entry(3), entry(4)];
    const second = watch();
    await settle();
    expect(second.seen.ids).toEqual([4, 3, 2, 1]);
    second.stop();
  });

  test('a failing log load is an error to show, not an exception', async () => {
    const backend = new TestBackend();
    const feed = new ActivityFeed(backend.api);
    let error: string | undefined;
    const stop = $effect.root(() => {
      $effect(() => {
        error = feed.error?.message;
      });
    });
    await settle();
    expect(error).toBe('This part of Plugboard is not built yet.');
    stop();
  });
});

describe('AppState', () => {
  function loaded(backend: TestBackend, controllers: ControllerSummary[]) {
    backend.answer('app/snapshot', () => ({ ok: true, value: snapshot({ controllers }) }));
    const app = new AppState(backend.api);
    const stop = app.start();
    return { app, stop };
  }

  /** A loaded app state whose settings/set answers with the patch over the default settings. */
  async function savingSettings() {
    const backend = new TestBackend();
    backend.answer('settings/set', (input) => ({
      ok: true,
      value: { ...DEFAULT_SETTINGS, ...(input as object) },
    }));
    const { app, stop } = loaded(backend, [summary()]);
    await settle();
    return { backend, app, stop };
  }

  test('a refused reorder puts the tabs back and says why', async () => {
    const backend = new TestBackend();
    const { app, stop } = loaded(backend, [summary(), summary({ id: 'b', name: 'Bench B', order: 1 })]);
    await settle();
    const reordering = app.reorder(['b', 'bench-a']);
    const during = app.controllers.map((c) => c.id);
    await reordering;
    expect(during).toEqual(['b', 'bench-a']);
    expect(app.controllers.map((c) => c.id)).toEqual(['bench-a', 'b']);
    expect(app.banner?.context).toBe('The new tab order was not saved.');
    stop();
  });

  test('the tray favourites are saved whole: pin, then unpin', async () => {
    const { backend, app, stop } = await savingSettings();
    await app.toggleFavourite({ controllerId: 'bench-a', outlet: 3 });
    await app.toggleFavourite({ controllerId: 'bench-a', outlet: 5 });
    await app.toggleFavourite({ controllerId: 'bench-a', outlet: 3 });
    expect(backend.callsOf('settings/set')).toEqual([
      { trayFavourites: [{ controllerId: 'bench-a', outlet: 3 }] },
      {
        trayFavourites: [
          { controllerId: 'bench-a', outlet: 3 },
          { controllerId: 'bench-a', outlet: 5 },
        ],
      },
      { trayFavourites: [{ controllerId: 'bench-a', outlet: 5 }] },
    ]);
    expect(app.isFavourite({ controllerId: 'bench-a', outlet: 5 })).toBe(true);
    stop();
  });

  test('meter limits replace the same meter’s old ones; clearing both limits removes them', async () => {
    const { backend, app, stop } = await savingSettings();
    const volts = { controllerId: 'bench-a', key: 'buses.0.voltage' };
    const amps = { controllerId: 'bench-a', key: 'buses.0.current' };
    const rackVolts = { controllerId: 'rack-7', key: 'buses.0.voltage' };
    await app.saveThreshold({ ...volts, min: 110, max: null });
    await app.saveThreshold({ ...amps, min: null, max: 10 });
    await app.saveThreshold({ ...rackVolts, min: 200, max: 240 });
    await app.saveThreshold({ ...volts, min: 110, max: 125 });
    await app.saveThreshold({ ...amps, min: null, max: null });
    expect(backend.callsOf('settings/set').at(-2)).toEqual({
      meterThresholds: [
        { ...amps, min: null, max: 10 },
        { ...rackVolts, min: 200, max: 240 },
        { ...volts, min: 110, max: 125 },
      ],
    });
    expect(app.settings.meterThresholds).toEqual([
      { ...rackVolts, min: 200, max: 240 },
      { ...volts, min: 110, max: 125 },
    ]);
    stop();
  });

  test('a broken bridge becomes an error result, never an exception', async () => {
    const backend = new TestBackend();
    backend.answer('outlets/cycle', () => {
      throw new Error('socket closed');
    });
    const { app, stop } = loaded(backend, [summary()]);
    const result = await app.actionsFor('bench-a').cycle(2);
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INTERNAL',
        message: expect.stringContaining('lost contact with Plugboard’s main process (socket closed)'),
      },
    });
    stop();
  });
});

describe('Discovery', () => {
  test('progress that arrives before discovery/start answers is not lost', async () => {
    const backend = new TestBackend();
    backend.answer('discovery/start', () => {
      backend.emit('discovery/progress', {
        runId: 'r1',
        probed: 1,
        total: 4,
        done: false,
        results: [],
        error: null,
      });
      return { ok: true, value: { runId: 'r1' } };
    });
    const discovery = new Discovery(backend.api);
    let probed: number | undefined;
    const stop = $effect.root(() => {
      $effect(() => {
        probed = discovery.progress?.probed;
      });
    });
    flushSync();
    await discovery.start({ mdns: false, ssdp: false, range: ' 127.0.0.2-127.0.0.5 ' });
    flushSync();
    expect(probed).toBe(1);
    expect(discovery.running).toBe(true);
    expect(backend.callsOf('discovery/start')).toEqual([
      { mdns: false, ssdp: false, range: '127.0.0.2-127.0.0.5' },
    ]);
    backend.emit('discovery/progress', {
      runId: 'r1',
      probed: 4,
      total: 4,
      done: true,
      results: [],
      error: null,
    });
    flushSync();
    expect(probed).toBe(4);
    expect(discovery.running).toBe(false);
    stop();
  });
});
