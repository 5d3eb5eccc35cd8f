/**
 * What only an administrator's login reads (users, scripts, the SSH setting), asked through a running
 * Core that no window shows: the Core reads it for the command, as a Core in this process does, instead
 * of answering that it has not read it yet; a read that fails gives the unit's words.
 */
import { afterEach, expect, it } from 'vitest';
import { startEmulator } from '../../src-main/emulator';
import { runningCore } from './running-core';
import { cli } from './run-cli';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanups.splice(0).reverse()) await done();
});

async function service() {
  const emu = await startEmulator({ password: 'svc-admin-318', initialStates: Array(8).fill(false) });
  cleanups.push(() => emu.close());
  const running = await runningCore({ url: emu.url, name: 'Bench A', password: 'svc-admin-318' }, cleanups);
  return { emu, ...running };
}

it('users, scripts and ssh answer through a running Core that no window shows, as in process', async () => {
  const { env } = await service();
  const users = await cli(['--controller', 'Bench A', 'users', '--json'], { env });
  expect(users.code, users.stderr).toBe(0);
  expect(users.json<{ name: string; is_admin: boolean }[]>()).toContainEqual(
    expect.objectContaining({ name: 'admin', is_admin: true }),
  );
  const scripts = await cli(['--controller', 'Bench A', 'scripts', '--json'], { env });
  expect(scripts.code, scripts.stderr).toBe(0);
  expect(scripts.json<{ functions: string[] }>().functions.length).toBeGreaterThan(0);
  const ssh = await cli(['--controller', 'Bench A', 'ssh', '--json'], { env });
  expect(ssh.code, ssh.stderr).toBe(0);
  expect(typeof ssh.json<{ ssh_enabled: unknown }>().ssh_enabled).toBe('boolean');
});

it('a read the unit cannot answer gives its offline words, not "has not read"', async () => {
  const { emu, core, id, env } = await service();
  // The service saw the unit online, then it went away before anyone asked for its users.
  await core.handlers['controllers/refresh']({ id });
  await emu.close();
  const users = await cli(['--controller', 'Bench A', 'users'], { env });
  expect(users.code).toBe(3);
  expect(users.stderr).toMatch(/\[UNREACHABLE\]|\[TIMEOUT\]/);
  expect(users.stderr).not.toContain('has not read');
});
