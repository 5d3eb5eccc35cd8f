/**
 * The built `plugboard` on Electron's Node (24.14), where node:sqlite announces itself with an
 * ExperimentalWarning: a command that opens the lab store prints nothing of it, and a warning of
 * another kind still reaches stderr.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { builtCli } from './built-command';
import { cleanEnv } from './run-cli';

const dir = mkdtempSync(join(tmpdir(), 'plugboard-sqlite-warning-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("keeps node:sqlite's experimental notice out of a command's output, and no other warning", async () => {
  const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
  const quiet = await builtCli(['activity', '--json'], { env });
  expect(quiet.code).toBe(0);
  expect(quiet.stdout).toBe('[]\n');
  expect(quiet.stderr).not.toMatch(/ExperimentalWarning|SQLite is an experimental/);
  // The store was opened: the notice had its chance.
  expect(readdirSync(dir).filter((name) => name.startsWith('lab-store.sqlite'))).not.toEqual([]);
  // Another warning passes: one a preloaded script emits once the command runs.
  const loud = await builtCli(['activity', '--json'], {
    env: { ...env, NODE_OPTIONS: '--require=./test/cli/fixtures/warn.cjs' },
  });
  expect(loud.stderr).toContain('PlugboardTestWarning: still heard');
  expect(loud.stderr).not.toMatch(/SQLite is an experimental/);
});
