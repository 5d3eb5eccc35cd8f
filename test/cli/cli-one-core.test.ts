/**
 * One CLI: the same command gives the same answer and exit code whether its controller is saved (here
 * through a running Core, which holds the only copy of the password) or given by --url (a one-off Core in
 * the command's process). Each scenario runs on two emulators set up alike, one per path. @real-unit:
 * both twins in the profile's unit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { profileOptions } from '../core/harness';
import { cli, errorLines, type CliResult } from './run-cli';
import { runningCore } from './running-core';

const PASSWORD = 'one-core-913';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanups.splice(0).reverse()) await done();
});

async function unit(options: EmulatorOptions): Promise<RunningEmulator> {
  const emu = await startEmulator({
    password: PASSWORD,
    cycleDelay: 0.2,
    sequenceDelay: 0,
    initialStates: Array(8).fill(false),
    ...profileOptions(),
    ...options,
  });
  cleanups.push(() => emu.close());
  return emu;
}

/** The two paths to a unit: "Bench A" saved in a running Core, and the same unit's twin by --url. */
async function bothPaths(setUp: (emu: RunningEmulator) => void = () => undefined) {
  const saved = await unit({});
  const direct = await unit({});
  setUp(saved);
  setUp(direct);
  // No keychain for the commands: the saved path can only go through the running Core.
  const { env } = await runningCore({ url: saved.url, name: 'Bench A', password: PASSWORD }, cleanups);
  const host = new URL(direct.url).host;
  return {
    saved,
    direct,
    /** Run `args` both ways; stderr with the unit's name made the same. */
    run: async (...args: string[]): Promise<{ saved: CliResult; direct: CliResult }> => ({
      saved: await cli(['--controller', 'Bench A', ...args], { env }),
      direct: await cli(['--url', direct.url, '--user', 'admin', '--password-stdin', ...args], {
        env,
        stdin: `${PASSWORD}\n`,
      }),
    }),
    /** What a result said, with the unit named as on the saved path. */
    said: (result: CliResult): string[] => errorLines(result).map((line) => line.replaceAll(host, 'Bench A')),
  };
}

describe('the same outcome, the same exit code, by --url and through a saved controller', () => {
  it('off on a critical outlet is refused (exit 7, one sentence) and --yes switches it on both', async () => {
    const { saved, direct, run, said } = await bothPaths((emu) => {
      emu.device.setOutlet(2, { state: true });
      emu.device.setCritical(2, true);
    });
    const refused = await run('off', '3');
    expect([refused.saved.code, refused.direct.code]).toEqual([7, 7]);
    expect(said(refused.direct)).toEqual(said(refused.saved));
    expect(said(refused.direct)).toEqual([expect.stringMatching(/Outlet 3 on Bench A is marked critical/)]);
    expect([saved.device.outlet(2).physicalState, direct.device.outlet(2).physicalState]).toEqual([
      true,
      true,
    ]);

    const confirmed = await run('off', '3', '--yes');
    expect([confirmed.saved.code, confirmed.direct.code]).toEqual([0, 0]);
    expect([saved.device.outlet(2).state, direct.device.outlet(2).state]).toEqual([false, false]);
  });

  it('cycling an outlet that is off is not done on either path (exit 1, the same sentence)', async () => {
    const { run, said } = await bothPaths();
    const result = await run('cycle', '4');
    expect([result.saved.code, result.direct.code]).toEqual([1, 1]);
    expect(said(result.direct)).toEqual(said(result.saved));
    expect(said(result.direct)).toEqual([expect.stringMatching(/Outlet 4 on Bench A is off/)]);
  });

  it('"off all" with one locked outlet switches the other seven and exits 8 (partial) on both', async () => {
    const { saved, direct, run, said } = await bothPaths((emu) => {
      for (let i = 0; i < 8; i++) emu.device.setOutlet(i, { state: true });
      emu.device.lock(4);
    });
    const result = await run('off', 'all');
    expect([result.saved.code, result.direct.code]).toEqual([8, 8]);
    expect(said(result.direct)).toEqual(said(result.saved));
    expect(said(result.direct)).toEqual([expect.stringMatching(/Outlet 5 .*locked.*\[LOCKED\]$/)]);
    for (const emu of [saved, direct])
      expect(emu.device.outlets().map((o) => o.state)).toEqual([
        false,
        false,
        false,
        false,
        true,
        false,
        false,
        false,
      ]);
  });

  it('--wait returns once the unit confirmed the physical state, with --url too', async () => {
    const { saved, direct, run } = await bothPaths();
    const result = await run('on', '2', '--wait', '--json');
    expect([result.saved.code, result.direct.code]).toEqual([0, 0]);
    expect(result.direct.json()).toEqual([expect.objectContaining({ requested: [2], confirmed: true })]);
    expect(result.saved.json()).toEqual([expect.objectContaining({ requested: [2], confirmed: true })]);
    expect([saved.device.outlet(1).physicalState, direct.device.outlet(1).physicalState]).toEqual([
      true,
      true,
    ]);
  });

  it('user edit --outlets takes a range, as targets do', async () => {
    const { saved, direct, run } = await bothPaths((emu) =>
      emu.device.addUser({
        name: 'bob',
        password: 'bob-pw-1',
        isAdmin: false,
        outletAccess: Array(8).fill(false),
      }),
    );
    const result = await run('user', 'edit', 'bob', '--outlets', '1-3,7');
    expect([result.saved.code, result.direct.code], result.direct.stderr).toEqual([0, 0]);
    for (const emu of [saved, direct]) {
      expect(emu.device.users().find((u) => u.name === 'bob')?.outletAccess).toEqual([
        true,
        true,
        true,
        false,
        false,
        false,
        true,
        false,
      ]);
    }
  });
});
