/**
 * `reboot --wait`: the command returns once the unit answers again, so the next command reaches it; a
 * unit that stays down past --timeout exits 3 (unreachable) with a sentence saying so. @real-unit: the
 * profile's unit reboots.
 */
import { expect, it } from 'vitest';
import { emulator, login } from './cli-fixtures';
import { cli, errorLines } from './run-cli';

it('reboot --wait returns once the unit answers again: the next command reaches it', async () => {
  const e = await emulator({ rebootSeconds: 0.5 });
  const rebooted = await cli([...login(e), 'reboot', '--yes', '--wait']);
  expect(rebooted.code, rebooted.stderr).toBe(0);
  expect(rebooted.stdout).toMatch(/^127\.0\.0\.1:\d+ rebooted and answers again \(after \d+ s\)\.$/m);
  const next = await cli([...login(e), 'outlets', '--json']);
  expect(next.code, next.stderr).toBe(0);
  expect(next.json<unknown[]>()).toHaveLength(8);
});

it('reboot --wait on a unit that stays down past --timeout exits 3 and says so', async () => {
  const e = await emulator({ rebootSeconds: 600 });
  const result = await cli([...login(e), 'reboot', '--yes', '--wait', '--timeout', '1']);
  expect(result.code, result.stderr).toBe(3);
  expect(errorLines(result)).toEqual([
    expect.stringMatching(
      /did not answer again within 1 s of the reboot\..*--timeout SECONDS.*\[UNREACHABLE\]$/,
    ),
  ]);
});
