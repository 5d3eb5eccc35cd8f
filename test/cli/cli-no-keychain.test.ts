/**
 * `controllers add` on a machine without a keychain (no D-Bus session here): the controller is saved
 * without its password with one sentence saying so and what to do, never an internal error, and failed
 * adds leave nothing behind that later commands complain about.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PASSWORD, emulator } from './cli-fixtures';
import { cleanEnv, cli } from './run-cli';

const scratch = mkdtempSync(join(tmpdir(), 'plugboard-cli-no-keychain-'));
// Retried: once in a full run on a busy machine, an entry appeared in the folder while it was being
// removed (ENOTEMPTY), after every command had resolved; what wrote it late is not known yet.
afterAll(() => rmSync(scratch, { recursive: true, force: true, maxRetries: 5 }));
const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: scratch, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
const withPassword = (args: string[]) => cli(args, { env, stdin: `${PASSWORD}\n` });

it('saves the controller without its password, says so once, and later adds print no keychain lines', async () => {
  const [a, b] = [await emulator(), await emulator()];
  const added = await withPassword(['--url', a.url, '--password-stdin', 'controllers', 'add', 'Bench A']);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toMatch(/^Saved "Bench A" \(/);
  expect(added.stderr).toMatch(
    /"Bench A" is saved without its password: this machine has no keychain to keep it in\. Give it with each command \(--controller "Bench A" --password-stdin\)/,
  );
  expect(added.stderr).not.toContain('[INTERNAL]');

  const again = await withPassword(['--url', a.url, '--password-stdin', 'controllers', 'add', 'Bench B']);
  expect(again.code).toBe(1);
  const other = await withPassword(['--url', b.url, '--password-stdin', 'controllers', 'add', 'Bench C']);
  expect(other.code, other.stderr).toBe(0);
  for (const result of [added, again, other])
    expect(result.stderr).not.toMatch(/could not remove the keychain entry/);
  const saved = JSON.parse(readFileSync(join(scratch, 'config.json'), 'utf8')) as Record<string, unknown>;
  expect(saved.keychainJournal ?? []).toEqual([]);

  const asked = await cli(['--controller', 'Bench A', 'outlets'], { env });
  expect(asked.code).toBe(4);
  expect(asked.stderr).toMatch(
    /needs the password of admin for Bench A.*Add --password-stdin to give it for this command/,
  );
  const given = await withPassword(['--controller', 'Bench A', '--password-stdin', 'outlets', '--json']);
  expect(given.code, given.stderr).toBe(0);
  expect(given.json<unknown[]>()).toHaveLength(8);
});
