/**
 * `plugboard`, the package's `bin`: the built out/main/plugboard.js runs as its own executable under
 * Node, with no tsx, from any folder, and exits as soon as its work is done.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};
const BIN = join(ROOT, pkg.bin['plugboard']!);

let emulator: RunningEmulator;
let cwd = '';
/** No NODE_OPTIONS (a tsx loader there would hide a missing build step), a throwaway config folder. */
const env = (): NodeJS.ProcessEnv => ({
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  PLUGBOARD_CONFIG_DIR: join(cwd, 'config'),
});

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first with \`npx electron-vite build\`.`);
  cwd = await mkdtemp(join(tmpdir(), 'plugboard-bin-'));
  emulator = await startEmulator({ password: 'pw-4711', outlets: 2 });
});
afterAll(async () => {
  await emulator?.close();
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

describe('the plugboard bin', () => {
  it('reads the saved controllers (the settings file is loaded only by the commands that need it)', async () => {
    const { stdout } = await run(BIN, ['controllers', 'list', '--json'], { cwd, env: env() });
    expect(JSON.parse(stdout)).toEqual([]);
  });

  it('is the built file, executable, with a node shebang, and tsx is not a production dependency', () => {
    expect(pkg.bin['plugboard']).toBe('out/main/plugboard.js');
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(() => accessSync(BIN, constants.X_OK)).not.toThrow();
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
  });

  it('runs by itself from another folder: outlets --json against an emulator', async () => {
    emulator.device.setOutlet(0, { name: 'Lab PSU', state: true });
    emulator.device.setOutlet(1, { state: false });
    const { stdout } = await run(
      BIN,
      ['outlets', '--json', '--url', emulator.url, '--user', 'admin', '--password', 'pw-4711'],
      { cwd, env: env() },
    );
    const outlets = JSON.parse(stdout) as { number: number; name: string; physical_state: boolean }[];
    expect(outlets.map((o) => [o.number, o.name, o.physical_state])).toEqual([
      [1, 'Lab PSU', true],
      [2, 'Outlet 2', false],
    ]);
  });

  it('switches an outlet and keeps the exit codes: 0 ok, 4 authentication, 2 usage error', async () => {
    const login = ['--url', emulator.url, '--user', 'admin', '--password', 'pw-4711'];
    await run(process.execPath, [BIN, ...login, 'on', '2'], { cwd, env: env() });
    expect(emulator.device.outlet(1).state).toBe(true);
    const wrong = await run(
      process.execPath,
      [BIN, '--url', emulator.url, '--user', 'admin', '--password', 'nope', 'outlets'],
      {
        cwd,
        env: env(),
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(wrong).toMatchObject({ code: 4 });
    const usage = await run(process.execPath, [BIN, 'no-such-command'], { cwd, env: env() }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr).toContain("unknown command 'no-such-command'");
  });

  it('prints nothing on stderr when all went well: its start-up settings raise no warning of their own', async () => {
    const { stdout, stderr } = await run(BIN, ['outlets', '--json', '--url', emulator.url], {
      cwd,
      env: { ...env(), PLUGBOARD_PASSWORD: 'pw-4711' },
    });
    expect(JSON.parse(stdout)).toHaveLength(2);
    expect(stderr).toBe('');
  });
});
