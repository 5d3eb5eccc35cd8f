/**
 * The `plugboard` command: scripts, users, SSH, reboot, environment, exit codes and errors. @real-unit:
 * script calls, user logins and error answers follow the unit's profile.
 */
import { describe, expect, it } from 'vitest';
import { normalizeFingerprint } from '../../src-main/dli/tls-pin';
import { cleanEnv, cli, errorLines } from './run-cli';
import { PASSWORD, expectNoPassword, login, emulator } from './cli-fixtures';

describe('scripts, users, ssh, reboot', () => {
  it('starts a script with typed arguments and stops it', async () => {
    const e = await emulator();
    const started = await cli([
      ...login(e),
      'script',
      'start',
      'cycle_an_outlet',
      '--args',
      '5,10',
      '--json',
    ]);
    expect(started.code).toBe(0);
    const { thread_id: thread } = started.json<{ thread_id: string }>();
    expect(e.device.threads()).toEqual([{ id: thread, label: expect.stringContaining('cycle_an_outlet') }]);
    const stopped = await cli([...login(e), 'script', 'stop', thread]);
    expect(stopped.code).toBe(0);
    expect(e.device.threads()).toEqual([]);
  });

  it('user add reads the new password from stdin (after the login one) and never prints it', async () => {
    const e = await emulator();
    const result = await cli(
      ['--url', e.url, '--password-stdin', 'user', 'add', 'erin', '--password-stdin', '--outlets', '1,2'],
      {
        stdin: `${PASSWORD}\nerin-secret-99\n`,
      },
    );
    expect(result.code).toBe(0);
    expect(e.device.users().find((u) => u.name === 'erin')).toEqual({
      name: 'erin',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [true, true, false, false, false, false, false, false],
    });
    expectNoPassword(result.stdout, result.stderr);
    expect(result.stdout + result.stderr).not.toContain('erin-secret-99');
    const erin = await cli([
      '--url',
      e.url,
      '--user',
      'erin',
      '--password',
      'erin-secret-99',
      '--json',
      'outlets',
    ]);
    expect(erin.code).toBe(0);
    expect((await cli([...login(e), 'user', 'add', 'x', '--password', 'y'])).code).toBe(2);
    expect((await cli([...login(e), 'user', 'add', 'x'])).code).toBe(2);
    expect((await cli([...login(e), 'user', 'delete', 'erin'])).code).toBe(0);
    expect(e.device.users().map((u) => u.name)).toEqual(['admin']);
  });

  it('ssh on|off and reboot --yes', async () => {
    // Down until the test ends: the reboot cannot be over before a busy machine gets to look.
    const e = await emulator({ rebootSeconds: 600 });
    expect((await cli([...login(e), 'ssh', 'on'])).code).toBe(0);
    expect(e.device.config().sshEnabled).toBe(true);
    expect((await cli([...login(e), 'ssh', '--json'])).json()).toEqual({ ssh_enabled: true });
    expect((await cli([...login(e), 'ssh', 'off'])).code).toBe(0);
    expect(e.device.config().sshEnabled).toBe(false);
    const refused = await cli([...login(e), 'reboot']);
    expect(refused.code).toBe(2);
    expect(e.device.rebooting).toBe(false);
    expect((await cli([...login(e), 'reboot', '--yes'])).code).toBe(0);
    await expect.poll(() => e.device.rebooting, { timeout: 15_000 }).toBe(true);
  });
});

describe('options, environment and exit codes', () => {
  it('takes PLUGBOARD_URL, PLUGBOARD_USER and PLUGBOARD_PASSWORD as fallbacks', async () => {
    const e = await emulator({ user: 'boss' });
    const env = cleanEnv({ PLUGBOARD_URL: e.url, PLUGBOARD_USER: 'boss', PLUGBOARD_PASSWORD: PASSWORD });
    const result = await cli(['--json', 'info'], { env });
    expect(result.code).toBe(0);
    expect(result.json<{ serial: string }>().serial).toBe(e.device.serial);
    const piped = await cli(['--url', e.url, '--user', 'boss', '--password-stdin', 'outlets'], {
      stdin: `${PASSWORD}\n`,
    });
    expect(piped.code).toBe(0);
  });

  it('usage errors exit 2 with one line', async () => {
    const e = await emulator();
    for (const args of [
      ['frobnicate'],
      ['on'],
      ['on', '0'],
      ['outlets'],
      ['--url', e.url, '--controller', 'A', 'outlets'],
      ['--url', e.url, 'outlets'],
      [...login(e), '--accept-fingerprint', 'nope', 'outlets'],
      [...login(e), 'tree', '--depth', '99'],
      [...login(e), '--token', 'a.b', 'outlets'],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(errorLines(result), args.join(' ')).toHaveLength(1);
      expect(result.stdout).toBe('');
    }
  });

  it('controller errors exit by the exit-code table with one clear line, never showing the password', async () => {
    const e = await emulator();
    const wrong = await cli(['--url', e.url, '--password', 'not-the-pw-123', 'outlets']);
    expect(wrong.code).toBe(4);
    expect(errorLines(wrong)).toEqual([expect.stringContaining('Wrong user name or password')]);
    expect(wrong.stderr).not.toContain('not-the-pw-123');
    const json = await cli(['--url', e.url, '--password', 'not-the-pw-123', '--json', 'outlets']);
    expect(JSON.parse(errorLines(json)[0]!)).toMatchObject({ error: { code: 'AUTH_FAILED' } });
    const gone = await emulator();
    await gone.device.goOffline();
    const offline = await cli([...login(gone), 'outlets']);
    expect(offline.code).toBe(3);
    expect(errorLines(offline)).toEqual([expect.stringContaining('[UNREACHABLE]')]);
    e.device.setConfig({ restApiEnabled: false });
    const disabled = await cli([...login(e), 'outlets']);
    expect(disabled.code).toBe(1);
    expect(errorLines(disabled)).toEqual([expect.stringContaining('Allow REST-style API')]);
    const old = await emulator({ firmware: '1.10.15.0' });
    const reboot = await cli([...login(old), 'reboot', '--yes']);
    expect(reboot.code).toBe(1);
    expect(errorLines(reboot)).toEqual([expect.stringContaining('1.11.6.0 or newer')]);
  });

  it('HTTPS: first use names the fingerprint to accept; --accept-fingerprint connects', async () => {
    const e = await emulator({ tls: true });
    const fingerprint = normalizeFingerprint(e.device.certificate!.fingerprint256);
    const first = await cli([...login(e), 'outlets']);
    expect(first.code).toBe(4);
    expect(errorLines(first)).toEqual([expect.stringContaining(`--accept-fingerprint ${fingerprint}`)]);
    const accepted = await cli([...login(e), '--accept-fingerprint', fingerprint, '--json', 'outlets']);
    expect(accepted.code).toBe(0);
    expect(accepted.json<unknown[]>()).toHaveLength(8);
  });
});
