/**
 * The `plugboard` command: `outlet-config` and `relay` show and change outlet and relay settings.
 * @real-unit: a user who is not an administrator is answered as the profile's unit answers.
 */
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli';
import { login, emulator } from './cli-fixtures';

describe('outlet-config', () => {
  it("changes an outlet's cycle delay and critical flag and shows them", async () => {
    const e = await emulator();
    const set = await cli([...login(e), 'outlet-config', '3', '--cycle-delay', '10', '--critical', 'on']);
    expect(set.stderr).not.toMatch(/\[[A-Z_]+\]/);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('Changed the settings of outlet 3');
    expect(set.stdout).toMatch(/Cycle delay\s+10 s/);
    expect(set.stdout).toMatch(/Critical\s+yes/);
    expect(e.device.outlet(2)).toMatchObject({ cycleDelay: 10, critical: true });

    const back = await cli([...login(e), '--json', 'outlet-config', '3', '--cycle-delay', 'relay']);
    expect(back.code).toBe(0);
    expect(back.json()).toEqual({ number: 3, name: 'Outlet 3', cycle_delay: null, critical: true });
    expect(e.device.outlet(2).cycleDelay).toBeNull();

    const shown = await cli([...login(e), 'outlet-config', '3']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Cycle delay\s+the relay's \(0\.2 s\)/);
  });

  it('refuses a bad value as a usage error (exit 2) without changing anything', async () => {
    const e = await emulator();
    for (const args of [
      ['--cycle-delay', '-3'],
      ['--cycle-delay', '2.5'],
      ['--cycle-delay', '99999'],
      ['--cycle-delay', 'soon'],
      ['--critical', 'maybe'],
    ]) {
      const result = await cli([...login(e), 'outlet-config', '1', ...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^plugboard: --(cycle-delay|critical) takes/);
    }
    expect(e.device.outlet(0)).toMatchObject({ cycleDelay: null, critical: false });
  });

  it('explains FORBIDDEN to a user who is not an administrator (exit 4, authentication)', async () => {
    const e = await emulator();
    e.device.addUser({ name: 'bob', password: 'bob-pw', outletAccess: new Array<boolean>(8).fill(true) });
    const result = await cli([
      '--url',
      e.url,
      '--user',
      'bob',
      '--password',
      'bob-pw',
      'outlet-config',
      '2',
      '--critical',
      'on',
    ]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Only administrators can mark as critical outlet 2');
    expect(result.stderr).toContain('Log in as an administrator.');
    expect(result.stderr).toContain('[FORBIDDEN]');
    expect(e.device.outlet(1).critical).toBe(false);
  });
});

describe('relay', () => {
  it('shows the relay timing, and changes it', async () => {
    const e = await emulator();
    const shown = await cli([...login(e), '--json', 'relay']);
    expect(shown.code).toBe(0);
    expect(shown.json()).toEqual({ cycle_delay: 0.2, sequence_delay: 0 });
    const set = await cli([...login(e), 'relay', '--cycle-delay', '5', '--sequence-delay', '2']);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Cycle delay\s+5 s/);
    expect(set.stdout).toMatch(/Sequence delay\s+2 s/);
    const bad = await cli([...login(e), 'relay', '--sequence-delay', '61']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sequence-delay takes whole seconds from 0 to 60');
    expect((await cli([...login(e), '--json', 'relay'])).json()).toEqual({
      cycle_delay: 5,
      sequence_delay: 2,
    });
  });
});
