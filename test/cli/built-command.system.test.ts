/**
 * The built `plugboard` command as a process (built-command.ts): what the in-process scenarios cannot
 * show. Exit codes reach the shell, `--password-stdin` reads a real pipe, Ctrl+C aborts a sequence run
 * as documented and a signal ends a waiting command, and `npm run --silent cli -- …` works as the README
 * says. Everything else the command does is tested in process (run-cli.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '../../src-preload/contract';
import type { Core } from '../../src-main/core/index';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { builtCli, npmCli, startBuilt } from './built-command';
import { runningCore } from './running-core';
import { cleanEnv, errorLines } from './run-cli';

const PASSWORD = 'built-pw-5150';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function unit(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const e = await startEmulator({ password: PASSWORD, initialStates: Array(8).fill(false), ...options });
  cleanups.push(() => e.close());
  return e;
}

/** A running Core (as `plugboard serve` runs one) serving a config folder's socket, with one unit saved. */
async function service(e: RunningEmulator): Promise<{ core: Core; id: string; env: NodeJS.ProcessEnv }> {
  const { core, id, env } = await runningCore({ url: e.url, name: 'Bench A', password: PASSWORD }, cleanups);
  return { core, id, env };
}

describe('exit codes', () => {
  it('0 with the answer on stdout, 2 for a usage mistake, 4 for a refused login, 3 for a unit that does not answer', async () => {
    const e = await unit({ serial: 'LPC9000005150' });
    const login = ['--url', e.url, '--user', 'admin'];
    const env = cleanEnv({ PLUGBOARD_PASSWORD: PASSWORD });
    const gone = await unit();
    await gone.device.goOffline();
    const [ok, usage, refused, unreachable] = await Promise.all([
      builtCli([...login, 'info', '--json'], { env }),
      builtCli(['frobnicate'], { env }),
      builtCli([...login, 'outlets'], { env: cleanEnv({ PLUGBOARD_PASSWORD: 'not-it-77' }) }),
      builtCli(['--url', gone.url, '--user', 'admin', 'outlets'], { env }),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json()).toMatchObject({ model: 'LPC9', serial: 'LPC9000005150' });
    expect(ok.stderr).toBe('');
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(errorLines(usage)).toEqual([expect.stringMatching(/^plugboard: unknown command 'frobnicate'/)]);
    expect(refused.code).toBe(4);
    expect(errorLines(refused)).toEqual([expect.stringContaining('[AUTH_FAILED]')]);
    expect(refused.stderr).not.toContain('not-it-77');
    expect(unreachable.code).toBe(3);
    expect(errorLines(unreachable)).toEqual([expect.stringContaining('[UNREACHABLE]')]);
  });

  it('--url runs through a one-off Core: a critical outlet exits 7 until --yes, and the config folder stays empty', async () => {
    const e = await unit();
    e.device.setOutlet(2, { state: true });
    e.device.setCritical(2, true);
    const configDir = mkdtempSync(join(tmpdir(), 'plugboard-built-url-'));
    cleanups.push(async () => rmSync(configDir, { recursive: true, force: true }));
    const env = cleanEnv({ PLUGBOARD_PASSWORD: PASSWORD, PLUGBOARD_CONFIG_DIR: join(configDir, 'config') });
    const login = ['--url', e.url, '--user', 'admin'];
    const refused = await builtCli([...login, 'off', '3'], { env });
    expect(refused.code, refused.stderr).toBe(7);
    expect(errorLines(refused)).toEqual([
      expect.stringMatching(/Outlet 3 on 127\.0\.0\.1:\d+ is marked critical/),
    ]);
    expect(e.device.outlet(2).state).toBe(true);
    const confirmed = await builtCli([...login, 'off', '3', '--yes', '--wait'], { env });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(e.device.outlet(2).physicalState).toBe(false);
    // Nothing of the unit or its login was saved anywhere Plugboard keeps things.
    expect(readdirSync(configDir)).toEqual([]);
  });

  it('activity --csv and inventory --csv print their CSV: the exports load without the desktop shell', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'plugboard-built-csv-'));
    cleanups.push(async () => rmSync(configDir, { recursive: true, force: true }));
    const env = cleanEnv({
      PLUGBOARD_CONFIG_DIR: configDir,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    });
    const [activity, inventory] = await Promise.all([
      builtCli(['activity', '--csv'], { env }),
      builtCli(['inventory', '--csv'], { env }),
    ]);
    expect(activity.code, activity.stderr).toBe(0);
    expect(activity.stdout).toMatch(/^time,controller,outlet,action,door,who,result/);
    expect(inventory.code, inventory.stderr).toBe(0);
    expect(inventory.stdout).toMatch(/^controller,status,last_known,model,serial,firmware/);
  });
});

describe('standard input', () => {
  it('--password-stdin reads the first line of a pipe; a pipe that ends before it is a usage error', async () => {
    const e = await unit();
    const args = ['--url', e.url, '--user', 'admin', '--password-stdin', 'on', '3'];
    const [piped, empty] = await Promise.all([
      builtCli(args, { stdin: `${PASSWORD}\nnot read\n` }),
      builtCli(args, { stdin: '' }),
    ]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
    expect(e.device.outlet(2).state).toBe(true);
    expect(empty.code).toBe(2);
    expect(errorLines(empty)).toEqual([
      expect.stringContaining('Standard input ended before the password was read'),
    ]);
  });
});

describe('signals', () => {
  it('Ctrl+C (SIGINT) aborts a sequence run: the steps done stay, the rest are skipped, exit 1', async () => {
    const e = await unit();
    const { core, id, env } = await service(e);
    const group: Group = await core.handlers['sequences/save']({
      name: 'Rack 7',
      steps: [
        { controllerId: id, outlets: [1], wait: { kind: 'delay', seconds: 3600 } },
        { controllerId: id, outlets: [2], wait: { kind: 'delay', seconds: 0 } },
      ],
    });
    expect(group.name).toBe('Rack 7');
    const running = startBuilt(['sequence', 'run', 'Rack 7', 'on'], { env });
    // The first line of the timeline: the run has started and the command is following it.
    await vi.waitFor(() => expect(running.stdout()).toContain('Step 1:'), { timeout: 30_000 });
    running.child.kill('SIGINT');
    const ended = await running.ended;
    expect(ended, running.stderr()).toEqual({ code: 1, signal: null });
    expect(running.stdout()).toMatch(/Sequence 'Rack 7' was aborted before step 2 of 2/);
    expect(running.stderr().split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^plugboard: Sequence 'Rack 7' was aborted/),
    ]);
    expect(e.device.outlet(0).state).toBe(true);
    expect(e.device.outlet(1).state).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s ends a command waiting for --wait at once, by the signal',
    async (signal) => {
      // One outlet switches every 60 s: outlets 2 to 4 stay unconfirmed for minutes.
      const e = await unit({ sequenceDelay: 60 });
      const { env } = await service(e);
      const running = startBuilt(['on', 'Bench A:1-4', '--wait', '--timeout', '600'], { env });
      // The switch reached the unit: the command is waiting for the confirmation.
      await vi.waitFor(() => expect(e.device.stats.log.some((entry) => entry.method !== 'GET')).toBe(true), {
        timeout: 30_000,
      });
      running.child.kill(signal);
      expect(await running.ended).toEqual({ code: null, signal });
      expect(running.stdout()).toBe('');
    },
  );
});

it('npm run --silent cli -- info --json, as the README shows it', async () => {
  const e = await unit({ model: 'LPC9', serial: 'LPC92712030336' });
  const result = await npmCli(['--url', e.url, '--user', 'admin', 'info', '--json'], {
    env: cleanEnv({ PLUGBOARD_PASSWORD: PASSWORD }),
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.json()).toEqual({
    model: 'LPC9',
    serial: 'LPC92712030336',
    firmware: '1.12.14.0',
    relay_firmware: expect.any(String),
  });
  expect(result.stdout + result.stderr).not.toContain(PASSWORD);
});
