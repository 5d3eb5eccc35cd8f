/**
 * keytar against a real Secret Service (gnome-keyring, files in a temporary HOME; nothing touches the
 * machine's keyring). Each case runs a child process: against the run's shared unlocked keychain under a
 * service name of its own, or, where the keychain's condition is the point (locked, no login keyring, no
 * Secret Service, no bus), against a session of its own in that condition.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  keyringHome,
  startKeychainSession,
  type KeychainSession,
  type KeychainSessionOptions,
} from './keychain-session';
import { keychainService, sharedKeychainBus } from './shared-keychain';

const root = path.resolve(import.meta.dirname, '../..');
const child = path.join(import.meta.dirname, 'fixtures', 'keytar-child.ts');
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-keytar-'));
const sessions: KeychainSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.stop()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const newHome = () => mkdtempSync(path.join(scratch, 'home-'));

/** A keychain session of this test's own, in the condition the test is about. */
async function ownSession(home: string, options: KeychainSessionOptions): Promise<string> {
  const session = await startKeychainSession(home, options);
  sessions.push(session);
  return session.bus;
}

/** Run keytar-child.ts `mode` with its config folder under `home`, talking to the keychain on `bus`. */
function runChild(mode: string, bus: string, home = newHome()): Promise<Record<string, unknown>> {
  const args = ['--import', 'tsx', child, mode, path.join(home, 'config'), keychainService(mode)];
  const env = { ...process.env, ...keyringHome(home), DBUS_SESSION_BUS_ADDRESS: bus };
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A dbus-daemon config without service directories: no Secret Service can be activated on it. */
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
    const result = await runChild('roundtrip', sharedKeychainBus());
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
    const result = await runChild('registry', sharedKeychainBus());
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
    const home = newHome();
    const result = await runChild(
      'error',
      await ownSession(home, { keyring: 'none', busConfig: bareBusConfig(home) }),
      home,
    );
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/No Secret Service is running/);
    expect(result.message).toMatch(/gnome-keyring/);
    expect(result.message).not.toContain('never stored');
  });

  it('explains that a D-Bus session is needed when there is none', async () => {
    const home = newHome();
    const result = await runChild('error', `unix:path=${path.join(home, 'no-such-bus')}`, home);
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/D-Bus session/);
  });

  it('says the keychain is locked when it is', async () => {
    const home = newHome();
    const first = await startKeychainSession(home);
    try {
      expect((await runChild('roundtrip', first.bus, home)).afterSet).toBe('first secret');
    } finally {
      await first.stop();
    }
    // A second session finds the login keyring on disk but nobody unlocks it.
    const result = await runChild('error', await ownSession(home, { keyring: 'locked' }), home);
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/keychain is locked/);
  });

  it('says when there is no login keyring to store into', async () => {
    const home = newHome();
    const result = await runChild('error', await ownSession(home, { keyring: 'locked' }), home);
    expect(result).toMatchObject({ threw: true, plugboard: true });
    expect(result.message).toMatch(/no login keyring yet/);
  });
});
