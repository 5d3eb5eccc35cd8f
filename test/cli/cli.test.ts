/** The real `plugboard` command against the emulator: output shapes, exit codes, errors, env fallbacks. */
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeFingerprint } from '../../src-main/dli';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { cleanEnv, cli, errorLines, npmCli } from './run-cli';

const PASSWORD = 'pw-4711';
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function unit(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const started = await startEmulator({
    password: PASSWORD,
    cycleDelay: 0.2,
    sequenceDelay: 0,
    rebootSeconds: 0.3,
    ...options,
  });
  for (let i = 0; i < started.device.outletCount; i++) started.device.setOutlet(i, { state: false });
  running.push(started);
  return started;
}

const login = (e: RunningEmulator): string[] => ['--url', e.url, '--user', 'admin', '--password', PASSWORD];

function expectNoPassword(...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(PASSWORD);
}

describe('reading', () => {
  it('npm run --silent cli -- info --json prints exactly model, serial, firmware, relay_firmware', async () => {
    const e = await unit({ model: 'LPC9', serial: 'LPC92712030336' });
    const result = await npmCli([...login(e), 'info', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      model: 'LPC9',
      serial: 'LPC92712030336',
      firmware: '1.12.14.0',
      relay_firmware: expect.any(String),
    });
    expectNoPassword(result.stdout, result.stderr);
  });

  it('outlets: --json shape and an aligned table without colours when not a TTY', async () => {
    const e = await unit({ outlets: 4 });
    e.device.setOutlet(1, { name: 'Lab PSU', state: true });
    e.device.lock(3);
    const json = await cli([...login(e), '--json', 'outlets']);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual([
      {
        number: 1,
        name: 'Outlet 1',
        state: false,
        transient_state: false,
        physical_state: false,
        locked: false,
      },
      { number: 2, name: 'Lab PSU', state: true, transient_state: true, physical_state: true, locked: false },
      {
        number: 3,
        name: 'Outlet 3',
        state: false,
        transient_state: false,
        physical_state: false,
        locked: false,
      },
      {
        number: 4,
        name: 'Outlet 4',
        state: false,
        transient_state: false,
        physical_state: false,
        locked: true,
      },
    ]);
    const table = await cli([...login(e), 'outlets']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('\u001b[');
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+NAME\s+STATE\s+TRANSIENT\s+PHYSICAL\s+LOCKED$/);
    expect(lines[2]).toMatch(/^2\s+Lab PSU\s+on\s+on\s+on$/);
    expect(lines[4]).toMatch(/locked$/);
    const column = lines[0]!.indexOf('STATE');
    expect(lines.slice(1).every((line) => line.indexOf('o', column) === column)).toBe(true);
  });

  it('meters: --json shape, °F by the controller formula, and a clear "no meters"', async () => {
    const e = await unit();
    e.device.setMeter('environment.temperature', 300);
    const result = await cli([...login(e), 'meters', '--fahrenheit', '--json']);
    expect(result.code).toBe(0);
    const rows = result.json<{ key: string; name: string; value: number | null; unit: string }[]>();
    expect(Object.keys(rows[0]!).sort()).toEqual(['key', 'name', 'unit', 'value']);
    const temperature = rows.find((r) => r.key === 'environment.temperature')!;
    expect(temperature.unit).toBe('°F');
    expect(temperature.value).toBeCloseTo((9 / 5) * (300 - 273.16) + 32, 9);
    const bare = await unit({ meters: false });
    const none = await cli([...login(bare), 'meters']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('has no meters');
    expect((await cli([...login(bare), 'meters', '--json'])).json()).toEqual([]);
  });

  it('scripts and users --json shapes', async () => {
    const e = await unit();
    e.device.addUser({
      name: 'bob',
      password: 'x',
      outletAccess: [true, false, true, false, false, false, false, false],
    });
    const scripts = await cli([...login(e), 'scripts', '--json']);
    expect(scripts.json()).toEqual({ functions: expect.arrayContaining(['cycle_an_outlet']), threads: [] });
    const users = await cli([...login(e), 'users', '--json']);
    expect(users.json()).toEqual([
      { name: 'admin', is_admin: true, is_allowed: true, outlet_access: [1, 2, 3, 4, 5, 6, 7, 8] },
      { name: 'bob', is_admin: false, is_allowed: true, outlet_access: [1, 3] },
    ]);
  });

  it('tree with a path and --depth', async () => {
    const e = await unit();
    const result = await cli([...login(e), 'tree', 'relay/outlets/2', '--depth', '1']);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ name: 'Outlet 3', state: false });
  });
});

describe('switching', () => {
  it('on/off by number, list, all and name; --transient; JSON result', async () => {
    const e = await unit();
    e.device.setOutlet(5, { name: 'Lamp' });
    expect((await cli([...login(e), 'on', '3'])).code).toBe(0);
    expect((await cli([...login(e), 'on', '1,4,7', '--transient'])).code).toBe(0);
    const byName = await cli([...login(e), '--json', 'on', 'lamp']);
    expect(byName.json()).toEqual({ requested: [6], failed: [] });
    const states = e.device.outlets();
    expect(states.map((o) => o.state)).toEqual([false, false, true, false, false, true, false, false]);
    expect(states.map((o) => o.transientState)).toEqual([true, false, true, true, false, true, true, false]);
    const off = await cli([...login(e), 'off', 'all']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Switched outlets 1, 2, 3, 4, 5, 6, 7, 8 off');
    expect(e.device.outlets().every((o) => !o.transientState)).toBe(true);
  });

  it('a locked outlet: the others switch, one line on stderr per refusal, exit 1', async () => {
    const e = await unit();
    e.device.lock(1);
    const result = await cli([...login(e), 'on', '1,2,3']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Switched outlets 1, 3 on');
    expect(errorLines(result)).toEqual([expect.stringMatching(/Outlet 2 on .* is locked.*\[LOCKED\]$/)]);
    expect(
      e.device
        .outlets()
        .map((o) => o.state)
        .slice(0, 3),
    ).toEqual([true, false, true]);
  });

  it('cycle and switch (simultaneous)', async () => {
    const e = await unit();
    e.device.setOutlet(1, { state: true });
    const cycled = await cli([...login(e), 'cycle', '2', '--json']);
    expect(cycled.json()).toEqual({ outlet: 2, cycled: true });
    const notCycled = await cli([...login(e), 'cycle', '3']);
    expect(notCycled.stdout).toContain('Outlet 3 is off, so it was not cycled.');
    const switched = await cli([...login(e), '--json', 'switch', '1=on', '5=on', '2=off']);
    expect(switched.code).toBe(0);
    expect(switched.json()).toEqual({ requested: [1, 2, 5], failed: [], simultaneous: true });
    expect(e.device.outlet(0).transientState).toBe(true);
    expect(e.device.outlet(4).transientState).toBe(true);
    expect((await cli([...login(e), 'switch', '1=maybe'])).code).toBe(2);
  });
});

describe('scripts, users, ssh, reboot', () => {
  it('starts a script with typed arguments and stops it', async () => {
    const e = await unit();
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
    const e = await unit();
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
    const e = await unit();
    expect((await cli([...login(e), 'ssh', 'on'])).code).toBe(0);
    expect(e.device.config().sshEnabled).toBe(true);
    expect((await cli([...login(e), 'ssh', '--json'])).json()).toEqual({ ssh_enabled: true });
    expect((await cli([...login(e), 'ssh', 'off'])).code).toBe(0);
    expect(e.device.config().sshEnabled).toBe(false);
    const refused = await cli([...login(e), 'reboot']);
    expect(refused.code).toBe(2);
    expect(e.device.rebooting).toBe(false);
    expect((await cli([...login(e), 'reboot', '--yes'])).code).toBe(0);
    await expect.poll(() => e.device.rebooting, { timeout: 2000 }).toBe(true);
  });
});

describe('options, environment and exit codes', () => {
  it('takes PLUGBOARD_URL, PLUGBOARD_USER and PLUGBOARD_PASSWORD as fallbacks', async () => {
    const e = await unit({ user: 'boss' });
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
    const e = await unit();
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

  it('controller errors exit 1 with one clear line, never showing the password', async () => {
    const e = await unit();
    const wrong = await cli(['--url', e.url, '--password', 'not-the-pw-123', 'outlets']);
    expect(wrong.code).toBe(1);
    expect(errorLines(wrong)).toEqual([expect.stringContaining('Wrong user name or password')]);
    expect(wrong.stderr).not.toContain('not-the-pw-123');
    const json = await cli(['--url', e.url, '--password', 'not-the-pw-123', '--json', 'outlets']);
    expect(JSON.parse(errorLines(json)[0]!)).toMatchObject({ error: { code: 'AUTH_FAILED' } });
    const gone = await unit();
    await gone.device.goOffline();
    const offline = await cli([...login(gone), 'outlets']);
    expect(offline.code).toBe(1);
    expect(errorLines(offline)).toEqual([expect.stringContaining('[UNREACHABLE]')]);
    e.device.setConfig({ restApiEnabled: false });
    const disabled = await cli([...login(e), 'outlets']);
    expect(disabled.code).toBe(1);
    expect(errorLines(disabled)).toEqual([expect.stringContaining('Allow REST-style API')]);
    const old = await unit({ firmware: '1.10.15.0' });
    const reboot = await cli([...login(old), 'reboot', '--yes']);
    expect(reboot.code).toBe(1);
    expect(errorLines(reboot)).toEqual([expect.stringContaining('1.11.6.0 or newer')]);
  });

  it('HTTPS: first use names the fingerprint to accept; --accept-fingerprint connects', async () => {
    const e = await unit({ tls: true });
    const fingerprint = normalizeFingerprint(e.device.certificate!.fingerprint256);
    const first = await cli([...login(e), 'outlets']);
    expect(first.code).toBe(1);
    expect(errorLines(first)).toEqual([expect.stringContaining(`--accept-fingerprint ${fingerprint}`)]);
    const accepted = await cli([...login(e), '--accept-fingerprint', fingerprint, '--json', 'outlets']);
    expect(accepted.code).toBe(0);
    expect(accepted.json<unknown[]>()).toHaveLength(8);
  });
});
