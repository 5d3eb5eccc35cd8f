/**
 * One Core per machine: when a Core serves the config folder's socket (as `plugboard serve` does), the
 * CLI acts through it instead of opening the units itself. The service here holds the only copy of the
 * password (in memory), and the command has no keychain: a CLI that opened its own Core could not log
 * in. Its actions land in the service's activity log as the CLI's, `--wait` follows the service's
 * events, and the service's reservations refuse it. `--service URL` names a service that must answer.
 */
import { userInfo } from 'node:os';
import { afterEach, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import type { Core } from '../../src-main/core/index';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { runningCore } from './running-core';
import { cleanEnv, cli } from './run-cli';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanups.splice(0).reverse()) await done();
});

async function service(): Promise<{ emu: RunningEmulator; core: Core; configDir: string; id: string }> {
  const emu = await startEmulator({ password: 'svc-only-771', initialStates: Array(8).fill(false) });
  cleanups.push(() => emu.close());
  const { core, configDir, id } = await runningCore(
    { url: emu.url, name: 'Bench A', password: 'svc-only-771' },
    cleanups,
  );
  return { emu, core, configDir, id };
}

it('acts through the running Core: logged there as the CLI by this OS user, --wait on its events, its reservations honoured', async () => {
  const { emu, core, configDir, id } = await service();
  const entries: ActivityEntry[] = [];
  core.subscribe((name, payload) => {
    if (name === 'activity/added') entries.push(payload as ActivityEntry);
  });
  // No keychain for the command: only the service can log in to the unit.
  const env = cleanEnv({
    PLUGBOARD_CONFIG_DIR: configDir,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
  });

  const on = await cli(['on', 'Bench A:3', '--wait'], { env });
  expect(on.code, on.stderr).toBe(0);
  expect(emu.device.outlet(2).physicalState).toBe(true);
  expect(entries.find((e) => e.outlet === 3 && e.action === 'on')).toMatchObject({
    source: 'cli',
    who: userInfo().username,
    result: 'ok',
  });

  await core.handlersAs({ door: 'window', who: 'alice', role: 'operator' })['reservations/take']({
    target: { kind: 'outlet', controllerId: id, outlet: 3 },
    reason: 'soak test',
    durationMs: 3_600_000,
  });
  const off = await cli(['off', 'Bench A:3'], { env });
  expect(off.code).toBe(5);
  expect(off.stderr).toMatch(/reserved by alice until .*: soak test/);
  expect(emu.device.outlet(2).physicalState).toBe(true);
});

it('--service names a service that must answer (exit 3); --wait with --url waits on an unreachable unit no less (exit 3)', async () => {
  const env = cleanEnv({ PLUGBOARD_SERVICE_TOKEN: 'svc-token-77' });
  const service = await cli(['--service', 'http://127.0.0.1:9', 'on', 'Bench A:1'], { env });
  expect(service.code, service.stderr).toBe(3);
  expect(service.stderr).toContain('No Plugboard service answered at http://127.0.0.1:9');
  expect(service.stderr).not.toContain('svc-token-77');
  const direct = await cli(['--url', 'http://127.0.0.1:9', '--password', 'x', 'on', '1', '--wait']);
  expect(direct.code, direct.stderr).toBe(3);
  expect(direct.stderr).toMatch(/127\.0\.0\.1:9.*\[UNREACHABLE\]/);
});
