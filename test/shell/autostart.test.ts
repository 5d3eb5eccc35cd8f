/**
 * Start at login: the XDG autostart entry on Linux, kept in step with the `startAtLogin` setting of a
 * real Core; Electron's login items elsewhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCore, type Core, dispatch, MemoryStore } from '../../src-main/core/index';
import {
  applyStartAtLogin,
  autostartFile,
  execArgument,
  syncStartAtLogin,
  type LoginItems,
} from '../../src-main/shell/autostart';
import { LOADED } from '../core/loaded';

let home = '';
const noLoginItems: LoginItems = {
  setLoginItemSettings: () => {
    throw new Error('Linux has no login items: the XDG entry is used instead');
  },
};

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'plugboard-autostart-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('Linux: the XDG autostart entry', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x/cfg/' }, '/home/a')).toBe(
      '/x/cfg/autostart/plugboard.desktop',
    );
    expect(autostartFile({}, '/home/a')).toBe('/home/a/.config/autostart/plugboard.desktop');
  });

  it('is written on and removed off; it starts the AppImage file when run from one', async () => {
    const env = { XDG_CONFIG_HOME: join(home, 'cfg') };
    const file = autostartFile(env, home);
    const options = {
      loginItems: noLoginItems,
      platform: 'linux' as const,
      env,
      home,
      execPath: '/opt/Plugboard/plugboard-desktop',
    };
    await applyStartAtLogin(true, options);
    const entry = readFileSync(file, 'utf8');
    expect(entry.split('\n')).toEqual(
      expect.arrayContaining([
        '[Desktop Entry]',
        'Type=Application',
        'Exec=/opt/Plugboard/plugboard-desktop',
      ]),
    );
    await applyStartAtLogin(true, {
      ...options,
      env: { ...env, APPIMAGE: '/home/a/Apps/Plugboard 0.1.AppImage' },
    });
    expect(readFileSync(file, 'utf8')).toContain('Exec="/home/a/Apps/Plugboard 0.1.AppImage"\n');
    await applyStartAtLogin(false, options);
    expect(existsSync(file)).toBe(false);
    await expect(applyStartAtLogin(false, options)).resolves.toBeUndefined();
  });

  it('quotes the Exec argument as the Desktop Entry Specification says', () => {
    expect(execArgument('/opt/Plugboard/plugboard-desktop')).toBe('/opt/Plugboard/plugboard-desktop');
    expect(execArgument('/home/a/My "apps"/$x`y\\z 100%')).toBe(
      '"/home/a/My \\"apps\\"/\\$x\\`y\\\\z 100%%"',
    );
  });
});

describe('macOS and Windows: login items', () => {
  it('pass the setting to Electron and write no file', async () => {
    const asked: boolean[] = [];
    const loginItems = {
      setLoginItemSettings: (s: { openAtLogin: boolean }) => void asked.push(s.openAtLogin),
    };
    const env = { XDG_CONFIG_HOME: join(home, 'cfg') };
    await applyStartAtLogin(true, { loginItems, platform: 'win32', env, home });
    await applyStartAtLogin(false, { loginItems, platform: 'darwin', env, home });
    expect(asked).toEqual([true, false]);
    expect(existsSync(autostartFile(env, home))).toBe(false);
  });
});

describe('kept in step with the setting', () => {
  let core: Core | undefined;
  afterEach(async () => core?.dispose());

  it('is off by default, and follows settings/set on and off', async () => {
    core = createCore({ shell: 'test', version: '0', store: new MemoryStore(), log: () => {} });
    const env = { XDG_CONFIG_HOME: join(home, 'cfg') };
    const file = autostartFile(env, home);
    const logged: string[] = [];
    const stop = syncStartAtLogin(core, {
      loginItems: noLoginItems,
      platform: 'linux',
      env,
      home,
      execPath: '/opt/Plugboard/plugboard-desktop',
      log: (message) => void logged.push(message),
    });
    const set = (startAtLogin: unknown) => dispatch(core!.handlers, 'settings/set', { startAtLogin });
    expect((await dispatch(core.handlers, 'settings/get', {})) as unknown).toMatchObject({
      ok: true,
      value: { startAtLogin: false },
    });
    await expect(set(true)).resolves.toMatchObject({ ok: true });
    await vi.waitFor(() => expect(existsSync(file)).toBe(true), LOADED);
    await expect(set(false)).resolves.toMatchObject({ ok: true });
    await vi.waitFor(() => expect(existsSync(file)).toBe(false), LOADED);
    // Bad input changes nothing.
    await expect(set('yes')).resolves.toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    stop();
    expect(logged).toEqual([]);
  });
});
