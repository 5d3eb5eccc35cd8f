import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SequenceRun } from '../../../src-preload/model';
import { ActivityLog } from '../../../src-main/core/activity/activity-log';
import { systemClock } from '../../../src-main/core/kernel/clock';
import { plugboardConfigDir } from '../../../src-main/core/saved/config-dir';
import { ConfigFileLock } from '../../../src-main/core/saved/config-lock';
import { saveInventoryCache } from '../../../src-main/core/fleet/inventory-cache';
import { openSavedCore } from '../../../src-main/core/saved-core';
import { SequenceFile } from '../../../src-main/core/sequences/sequence-file';
import { takeCoreLock } from '../../../src-main/link';
import { MemorySecretStore } from '../../../src-main/secrets';
import type { TlsChoice } from '../../../src-main/serve/options';
import { loadTls } from '../../../src-main/serve/tls';
import { PlugboardError } from '../../../src-main/shared/errors';

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

/**
 * The config folder and what Plugboard writes there, whoever opens it: the CLI, the web shell and
 * `plugboard serve` through openSavedCore, the Core lock, the activity log, sequence runs, the inventory
 * cache and the service's TLS files. Another local account must not be able to read the files, write
 * the folder, or steer a write through a planted link.
 */
describe('the config folder: owner-only, nobody else’s, no links where Plugboard writes', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-folder-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let n = 0;
  const fresh = () => path.join(scratch, `c${++n}`);
  const mode = (file: string) => statSync(file).mode & 0o777;
  const open = async (dir: string) => {
    const core = await openSavedCore({
      shell: 'cli',
      version: '0',
      configDir: dir,
      secrets: new MemorySecretStore(),
      log: () => undefined,
    });
    return core;
  };
  const refusal = async (dir: string) => {
    const error: unknown = await open(dir).then(
      async (core) => {
        await core.dispose();
        return null;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlugboardError);
    return error as PlugboardError;
  };

  it('creates the folder 0700 and config.json 0600 (the CLI made them 0755 and 0644 under umask 022)', async () => {
    const dir = fresh();
    const core = await open(dir);
    await core.handlers['settings/set']({ pollIntervalMs: 2_000 });
    await core.dispose();
    expect(mode(dir)).toBe(0o700);
    expect(existsSync(path.join(dir, 'config.json'))).toBe(true);
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
  });

  it('makes a folder and config.json that an older Plugboard left readable by others owner-only', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, 'config.json'), '{}', { mode: 0o644 });
    writeFileSync(path.join(dir, 'activity.jsonl'), '', { mode: 0o644 });
    chmodSync(path.join(dir, 'activity.jsonl'), 0o644);
    await (await open(dir)).dispose();
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
    // The old log moved into the lab store; its backup stays owner-only, as the store's file is.
    const backup = readdirSync(dir).find((name) => name.startsWith('activity.jsonl.imported-'));
    expect(backup).toBeDefined();
    expect(mode(path.join(dir, backup!))).toBe(0o600);
    expect(mode(path.join(dir, 'lab-store.sqlite'))).toBe(0o600);
  });

  it('refuses a folder others can write to, saying to chmod it', async () => {
    const dir = fresh();
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const error = await refusal(dir);
    expect(error.message).toContain(`Others can write to the config folder ${dir}`);
    expect(error.action).toContain(`chmod 700 ${dir}`);
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
    chmodSync(dir, 0o775);
    expect((await refusal(dir)).message).toContain('Others can write');
  });

  it.runIf(process.getuid?.() === 0)(
    'refuses a folder, or a file in it, that belongs to another user',
    async () => {
      const dir = fresh();
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, 65534, 65534);
      const error = await refusal(dir);
      expect(error.message).toContain('belongs to another user (uid 65534)');
      expect(error.action).toContain('chown');
      chownSync(dir, 0, 0);
      writeFileSync(path.join(dir, 'config.json'), '{}', { mode: 0o600 });
      chownSync(path.join(dir, 'config.json'), 65534, 65534);
      expect((await refusal(dir)).message).toContain(
        `${path.join(dir, 'config.json')} belongs to another user`,
      );
    },
  );

  it.each([
    'activity.jsonl',
    'config.json',
    'config.json.lock',
    'core.lock',
    'core.sock',
    'inventory.json',
    'sequence-runs',
    'serve-tls',
  ])('refuses a symbolic link planted as %s, and writes nothing through it', async (name) => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const victim = path.join(scratch, `victim-${n}`);
    writeFileSync(victim, 'not yours\n');
    symlinkSync(victim, path.join(dir, name));
    const error = await refusal(dir);
    expect(error.message).toContain(`${path.join(dir, name)} is a symbolic link`);
    expect(error.action).toContain('rm ');
    await expect(takeCoreLock(dir, () => undefined)).rejects.toThrow('is a symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
  });

  it('refuses a link inside sequence-runs/ or the Core lock', async () => {
    const dir = fresh();
    mkdirSync(path.join(dir, 'sequence-runs'), { recursive: true, mode: 0o700 });
    symlinkSync('/etc/passwd', path.join(dir, 'sequence-runs', 'r1.json.tmp'));
    expect((await refusal(dir)).message).toContain('r1.json.tmp is a symbolic link');
  });

  it('never appends the activity log, a sequence run or the inventory cache through a link', async () => {
    const dir = fresh();
    mkdirSync(path.join(dir, 'sequence-runs'), { recursive: true, mode: 0o700 });
    const victim = path.join(scratch, `victim-${n}`);
    writeFileSync(victim, 'not yours\n');
    const logged: string[] = [];
    const activity = new ActivityLog({
      clock: systemClock,
      log: (message, error) => logged.push(`${message}: ${(error as Error | undefined)?.message}`),
      file: path.join(dir, 'activity.jsonl'),
    });
    // Planted after the folder was checked: the open itself refuses to follow it.
    symlinkSync(victim, path.join(dir, 'activity.jsonl'));
    activity.add({
      controllerId: 'c1',
      controllerName: 'Bench A',
      outlet: 1,
      action: 'on',
      actor: { door: 'cli', who: 'mallory' },
      result: 'ok',
      error: null,
    });
    await activity.flush();
    expect(logged.join('\n')).toMatch(/could not write the activity log.*ELOOP/);

    symlinkSync(victim, path.join(dir, 'sequence-runs', 'r1.json.tmp'));
    const runs = new SequenceFile(dir, (message) => logged.push(message));
    runs.write({ runId: 'r1', name: 'Soak' } as unknown as SequenceRun, Date.now());
    expect(logged.at(-1)).toContain('could not record the progress of sequence Soak');

    symlinkSync(victim, path.join(dir, `inventory.json.${process.pid}.tmp`));
    await expect(saveInventoryCache(path.join(dir, 'inventory.json'), new Map())).rejects.toThrow(/ELOOP/);
    expect(readFileSync(victim, 'utf8')).toBe('not yours\n');
  });

  it('keeps the settings lock folder and the service’s TLS files owner-only', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    let lockMode = 0;
    await new ConfigFileLock(path.join(dir, 'config.json')).run(async () => {
      lockMode = mode(path.join(dir, 'config.json.lock'));
    });
    expect(lockMode).toBe(0o700);
    const choice: TlsChoice = { kind: 'self-signed' };
    await loadTls(choice, dir, ['127.0.0.1']);
    expect(mode(path.join(dir, 'serve-tls'))).toBe(0o700);
    expect(mode(path.join(dir, 'serve-tls', 'key.pem'))).toBe(0o600);
    expect(mode(path.join(dir, 'serve-tls', 'cert.pem'))).toBe(0o600);
  });
});
