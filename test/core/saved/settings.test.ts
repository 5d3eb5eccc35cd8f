import Conf from 'conf';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../../src-preload/model';
import { MemoryStore } from '../../../src-main/core/kernel/ports';
import { SettingsStore, defaultSettings } from '../../../src-main/core/saved/settings';
import { PlugboardError } from '../../../src-main/shared/errors';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-settings-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function make(initial?: unknown) {
  const store = new MemoryStore();
  if (initial !== undefined) store.set('settings', initial);
  const logged: string[] = [];
  const changes: Settings[] = [];
  const settings = new SettingsStore({ store, log: (m) => logged.push(m), onChange: (s) => changes.push(s) });
  return { store, settings, logged, changes };
}

async function badInput(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PlugboardError);
    expect((error as PlugboardError).code).toBe('BAD_INPUT');
    return (error as PlugboardError).message;
  }
  throw new Error('expected BAD_INPUT');
}

describe('SettingsStore', () => {
  it('reads the settings file once, not on every poll, re-reads it only to change it, and keeps up with its own changes', async () => {
    const file = new Conf<Record<string, unknown>>({ cwd: scratch, configName: 'cached' });
    let reads = 0;
    const store = {
      get<T>(key: string, fallback: T): T {
        reads++;
        return file.get(key, fallback) as T;
      },
      set: (key: string, value: unknown) => file.set(key, value),
    };
    const settings = new SettingsStore({ store });
    for (let i = 0; i < 100; i++) expect(settings.get().pollIntervalMs).toBe(3000);
    expect(reads).toBe(1);
    await settings.update({ temperatureUnit: 'F' });
    expect(settings.get().temperatureUnit).toBe('F');
    expect(reads).toBe(2);
    expect(new SettingsStore({ store: file }).get().temperatureUnit).toBe('F');
  });

  it('starts from the defaults', () => {
    expect(make().settings.get()).toEqual({
      pollIntervalMs: 3000,
      unitSafetyPollMs: 30_000,
      temperatureUnit: 'C',
      theme: 'system',
      notifications: { offline: true, outsideChanges: true, meterThresholds: true },
      meterThresholds: [],
      meterLimitHoldSeconds: 15,
      trayFavourites: [],
      startAtLogin: false,
      overviewCompact: false,
      activityRetentionDays: 400,
    });
  });

  it('hands out copies: changing a result changes nothing saved', () => {
    const { settings } = make();
    const copy = settings.get();
    copy.trayFavourites.push({ controllerId: 'x', outlet: 1 });
    defaultSettings().meterThresholds.push({ controllerId: 'x', key: 'k', min: 1, max: 2 });
    expect(settings.get().trayFavourites).toEqual([]);
    expect(defaultSettings().meterThresholds).toEqual([]);
  });

  it('applies and persists partial updates, leaving other fields alone', async () => {
    const { settings, store, changes } = make();
    const after = await settings.update({ pollIntervalMs: 5000, theme: 'dark' });
    expect(after).toMatchObject({ pollIntervalMs: 5000, theme: 'dark', temperatureUnit: 'C' });
    await settings.update({
      temperatureUnit: 'F',
      trayFavourites: [
        { controllerId: 'c1', outlet: 2 },
        { controllerId: 'c1', outlet: 2 },
        { controllerId: 'c2', outlet: 1 },
      ],
    });
    const reread = new SettingsStore({ store }).get();
    expect(reread).toMatchObject({ pollIntervalMs: 5000, theme: 'dark', temperatureUnit: 'F' });
    expect(reread.trayFavourites).toEqual([
      { controllerId: 'c1', outlet: 2 },
      { controllerId: 'c2', outlet: 1 },
    ]);
    expect(changes).toHaveLength(2);
    expect(changes[1]).toEqual(reread);
  });

  it('refuses invalid updates with the contract’s messages and changes nothing', async () => {
    const { settings, changes } = make();
    expect(await badInput(() => settings.update({ pollIntervalMs: 100 }))).toMatch(
      /pollIntervalMs must be at least 500 ms/,
    );
    expect(await badInput(() => settings.update({ theme: 'neon', pollIntervalMs: 4000 }))).toMatch(/theme/);
    expect(
      await badInput(() => settings.update({ trayFavourites: [{ controllerId: 'c1', outlet: 0 }] })),
    ).toMatch(/outlets are numbered from 1/);
    expect(await badInput(() => settings.update({ colour: 'red' }))).toMatch(/colour/);
    expect(
      await badInput(() =>
        settings.update({
          meterThresholds: [{ controllerId: 'c1', key: 'buses.0.voltage', min: 130, max: 110 }],
        }),
      ),
    ).toMatch(/buses\.0\.voltage has its minimum \(130\) above its maximum \(110\)/);
    expect(settings.get()).toEqual(defaultSettings());
    expect(changes).toEqual([]);
  });

  it('falls back to the default for each corrupted field, keeping the good ones', () => {
    const { settings, logged } = make({
      pollIntervalMs: -5,
      temperatureUnit: 'F',
      theme: 42,
      notifications: { offline: false, outsideChanges: true, meterThresholds: false },
      meterThresholds: 'lots',
      trayFavourites: [{ controllerId: 'c1', outlet: 3 }],
      unknownKey: true,
    });
    expect(settings.get()).toEqual({
      ...defaultSettings(),
      temperatureUnit: 'F',
      notifications: { offline: false, outsideChanges: true, meterThresholds: false },
      trayFavourites: [{ controllerId: 'c1', outlet: 3 }],
    });
    expect(logged.join('\n')).toMatch(/"pollIntervalMs" is invalid/);
    expect(logged.join('\n')).toMatch(/"theme" is invalid/);
    expect(logged.join('\n')).toMatch(/"meterThresholds" is invalid/);
    settings.get();
    expect(logged).toHaveLength(3);
  });

  it('uses the defaults when the saved settings are not an object', () => {
    const { settings, logged } = make(['nope']);
    expect(settings.get()).toEqual(defaultSettings());
    expect(logged).toEqual(['settings file: the saved settings are not an object; using the defaults']);
  });

  it('forgets a removed controller’s favourites and thresholds', async () => {
    const { settings } = make();
    await settings.update({
      trayFavourites: [
        { controllerId: 'c1', outlet: 1 },
        { controllerId: 'c2', outlet: 1 },
      ],
      meterThresholds: [{ controllerId: 'c1', key: 'k', min: null, max: 3 }],
    });
    const after = await settings.forgetController('c1');
    expect(after.trayFavourites).toEqual([{ controllerId: 'c2', outlet: 1 }]);
    expect(after.meterThresholds).toEqual([]);
    expect(settings.get()).toEqual(after);
  });

  it('persists through conf in the shared config.json, beside the controllers', async () => {
    const cwd = mkdtempSync(path.join(scratch, 'conf-'));
    writeFileSync(
      path.join(cwd, 'config.json'),
      JSON.stringify({ controllers: [], settings: { theme: 'light', pollIntervalMs: 'fast' } }),
    );
    const settings = new SettingsStore({
      store: new Conf({ cwd, configName: 'config' }),
      log: () => undefined,
    });
    expect(settings.get()).toMatchObject({ theme: 'light', pollIntervalMs: 3000 });
    await settings.update({ pollIntervalMs: 10_000 });
    const file = JSON.parse(readFileSync(path.join(cwd, 'config.json'), 'utf8')) as {
      controllers: unknown;
      settings: Settings;
    };
    expect(file.controllers).toEqual([]);
    expect(file.settings).toMatchObject({ theme: 'light', pollIntervalMs: 10_000 });
  });
});
