import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * keytar against a real Secret Service: each case runs a child process inside its own
 * `dbus-run-session` with a freshly unlocked gnome-keyring whose files live in a temporary HOME,
 * so nothing touches the machine's keyring.
 */

const root = path.resolve(import.meta.dirname, '../..');
const child = path.join(import.meta.dirname, 'fixtures', 'keytar-child.ts');
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-keytar-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface RunOptions {
  /** Start gnome-keyring (unlocked) inside the session. */
  keyring?: 'unlocked' | 'locked' | 'none';
  /** A dbus-daemon config without service directories: no Secret Service can be activated. */
  bareBus?: boolean;
  /** Skip dbus-run-session and point at a bus that does not exist. */
  noBus?: boolean;
  /** Reuse a HOME (and so its keyrings) from an earlier run. */
  home?: string;
}

function runChild(mode: string, options: RunOptions = {}): Promise<Record<string, unknown>> {
  const home = options.home ?? mkdtempSync(path.join(scratch, 'home-'));
  const node = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(child)} ${mode} ${JSON.stringify(path.join(home, 'config'))}`;
  const keyring = options.keyring ?? 'unlocked';
  const start =
    keyring === 'unlocked'
      ? 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; '
      : keyring === 'locked'
        ? 'gnome-keyring-daemon --components=secrets >/dev/null; '
        : '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: path.join(home, 'data'),
    DISPLAY: '',
  };
  let command: string;
  let args: string[];
  if (options.noBus) {
    env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path.join(home, 'no-such-bus')}`;
    [command, args] = ['sh', ['-c', node]];
  } else {
    const config = options.bareBus ? [`--config-file=${bareBusConfig(home)}`] : [];
    [command, args] = ['dbus-run-session', [...config, '--', 'sh', '-c', start + node]];
  }
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (!line) return reject(new Error(`child printed no result.\nstdout: ${out}\nstderr: ${err}`));
      resolve(JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>);
    });
  });
}

function bareBusConfig(dir: string): string {
  const file = path.join(dir, 'bare-bus.conf');
  writeFileSync(
    file,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=${dir}</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
  );
  return file;
}

describe('KeytarSecretStore under a real Secret Service', () => {
  it('stores, reads, overwrites and deletes secrets', async () => {
    const result = await runChild('roundtrip');
    expect(result).toEqual({
      missing: null,
      afterSet: 'first secret',
      other: 'pässwörd:with "quotes" & ünïcödé ✓',
      afterOverwrite: 'second secret',
      deleted: true,
      afterDelete: null,
      deletedAgain: false,
      otherStill: 'pässwörd:with "quotes" & ünïcödé ✓',
    });
  });

  it('keeps controller secrets in the keychain and never in the settings file', async () => {
    const result = await runChild('registry');
    expect(result.secretAfterAdd).toBe('correct horse battery staple');
    // The real keychain holds the secret bound to the place it was saved for (registry-envelope.ts).
    expect(JSON.parse(result.inKeychain as string)).toEqual({
      v: 1,
      secret: 'correct horse battery staple',
      for: { origin: 'http://127.0.0.1:8080', auth: 'digest', user: 'admin', fingerprint: null },
    });
    expect(result.secretAfterUpdate).toBe('tr0ub4dor&3');
    expect(result.added).toMatchObject({ name: 'Bench A', url: 'http://127.0.0.1:8080', hasSecret: true });
    for (const file of [result.fileAfterAdd, result.fileAfterUpdate] as string[]) {
      expect(file).toContain('"hasSecret": true');
      expect(file).not.toContain('correct horse');
      expect(file).not.toContain('tr0ub4dor');
    }
    expect(result.fileAfterUpdate).toContain('Bench A2');
    // Removing the controller removed its secret from the real keychain.
    expect(result.afterRemove).toBeNull();
    expect(result.listAfterRemove).toEqual([]);
  });

  it('explains how to get a Secret Service when none is running', async () => {
    const result = await runChild('error', { bareBus: true, keyring: 'none' });
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/No Secret Service is running/);
    expect(result.message).toMatch(/gnome-keyring/);
    expect(result.message).not.toContain('never stored');
  });

  it('explains that a D-Bus session is needed when there is none', async () => {
    const result = await runChild('error', { noBus: true });
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/D-Bus session/);
  });

  it('says the keychain is locked when it is', async () => {
    const home = mkdtempSync(path.join(scratch, 'home-'));
    expect((await runChild('roundtrip', { home })).afterSet).toBe('first secret');
    // A second session finds the login keyring on disk but nobody unlocks it.
    const result = await runChild('error', { keyring: 'locked', home });
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/keychain is locked/);
  });

  it('says when there is no login keyring to store into', async () => {
    const result = await runChild('error', { keyring: 'locked' });
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/no login keyring yet/);
  });
});
