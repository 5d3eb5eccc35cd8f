import { describe, expect, it } from 'vitest';
import { plugboardConfigDir } from '../../src-main/core/config-dir';

describe('plugboardConfigDir', () => {
  it('matches Electron userData on Linux: $XDG_CONFIG_HOME/Plugboard, else ~/.config/Plugboard', () => {
    expect(plugboardConfigDir({ platform: 'linux', env: {}, home: '/home/ann' })).toBe(
      '/home/ann/.config/Plugboard',
    );
    expect(
      plugboardConfigDir({ platform: 'linux', env: { XDG_CONFIG_HOME: '/srv/cfg/' }, home: '/home/ann' }),
    ).toBe('/srv/cfg/Plugboard');
    expect(plugboardConfigDir({ platform: 'freebsd', env: { XDG_CONFIG_HOME: '' }, home: '/home/ann' })).toBe(
      '/home/ann/.config/Plugboard',
    );
  });

  it('matches Electron userData on macOS and Windows', () => {
    expect(
      plugboardConfigDir({ platform: 'darwin', env: { XDG_CONFIG_HOME: '/ignored' }, home: '/Users/ann' }),
    ).toBe('/Users/ann/Library/Application Support/Plugboard');
    expect(
      plugboardConfigDir({
        platform: 'win32',
        env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
        home: 'C:\\Users\\ann',
      }),
    ).toBe('C:\\Users\\ann\\AppData\\Roaming\\Plugboard');
    expect(plugboardConfigDir({ platform: 'win32', env: {}, home: 'C:\\Users\\ann' })).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\Plugboard',
    );
  });

  it('lets PLUGBOARD_CONFIG_DIR override everything', () => {
    expect(
      plugboardConfigDir({
        platform: 'linux',
        env: { PLUGBOARD_CONFIG_DIR: '/tmp/pb-test', XDG_CONFIG_HOME: '/x' },
        home: '/h',
      }),
    ).toBe('/tmp/pb-test');
    expect(plugboardConfigDir({ platform: 'linux', env: { PLUGBOARD_CONFIG_DIR: '   ' }, home: '/h' })).toBe(
      '/h/.config/Plugboard',
    );
  });

  it('reads the real environment by default', () => {
    const saved = process.env.PLUGBOARD_CONFIG_DIR;
    process.env.PLUGBOARD_CONFIG_DIR = '/tmp/from-env';
    try {
      expect(plugboardConfigDir()).toBe('/tmp/from-env');
    } finally {
      if (saved === undefined) delete process.env.PLUGBOARD_CONFIG_DIR;
      else process.env.PLUGBOARD_CONFIG_DIR = saved;
    }
  });
});
