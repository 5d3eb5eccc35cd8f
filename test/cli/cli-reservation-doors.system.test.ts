/**
 * A one-off login to a saved controller is no way round its reservations: `--controller NAME` with
 * `--reuse-secret`, `--user` or a typed password, and `--url` at the saved controller's address (by IP or
 * by name), go through the Core like `--controller NAME` alone. Someone else's reservation refuses them
 * with its sentence and exit 5, nothing reaches the unit, and a free outlet switched that way is in the
 * activity log as the command line's. With the real keychain (keychain-session.ts).
 */
import { afterEach, expect, it } from 'vitest';
import type { Reservation } from '../../src-preload/contract';
import { openConfStore } from '../../src-main/core/store';
import { dispatch, openLabRecords, osUserName } from '../../src-main/core/index';
import { MemorySecretStore } from '../../src-main/secrets';
import { cleanUp, newCore } from '../core/harness';
import { storedActivity } from '../core/stored-activity';
import { PASSWORD, emulator } from './cli-fixtures';
import { inKeychainSession, type StepResult } from './keychain-session';

afterEach(cleanUp);

/** The lines on stderr, without the notes about a login the Core did not use. */
const problems = (r: StepResult) =>
  r.stderr.split('\n').filter((line) => line.trim() && !line.includes('is a saved controller'));

it('refuses every one-off login form on a reserved outlet of a saved controller, as the saved path does', async () => {
  const e = await emulator({ autoping: true });
  e.device.setOutlet(2, { state: true });
  const typed = ['--user', 'admin', '--password-stdin'];
  const first = await inKeychainSession([
    { name: 'add', args: ['--url', e.url, ...typed, 'controllers', 'add', 'Bench 0'], stdin: PASSWORD },
  ]);
  expect(first.results.add!.code, first.results.add!.stderr).toBe(0);

  // alice (not this OS user) reserves outlet 3 in a Core of her own on the same config folder.
  const alice = newCore({
    store: openConfStore(first.configDir),
    dataDir: first.configDir,
    // Her log in the folder's lab store, as the desktop app keeps it.
    records: await openLabRecords(first.configDir, '0.0.0-test', () => undefined, Date.now(), {}),
    secrets: new MemorySecretStore(),
  });
  const id = (await alice.ok<{ id: string }[]>('controllers/list', {}))[0]!.id;
  const held = await dispatch(
    alice.core.handlersAs({ door: 'window', who: 'alice', role: 'admin' }),
    'reservations/take',
    {
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: 3_600_000,
    },
    () => undefined,
  );
  if (!held.ok) throw new Error(held.error.message);
  expect((held.value as Reservation).holder).toBe('alice');
  await alice.core.dispose();

  const port = new URL(e.url).port;
  const url = ['--url', e.url, ...typed];
  const { results: r } = await inKeychainSession(
    [
      { name: 'saved', args: ['--controller', 'Bench 0', 'off', '3'] },
      { name: 'reuse', args: ['--controller', 'Bench 0', '--reuse-secret', 'off', '3'] },
      { name: 'user', args: ['--controller', 'Bench 0', '--user', 'guest', '--reuse-secret', 'off', '3'] },
      { name: 'typed', args: ['--controller', 'Bench 0', ...typed, 'off', '3'], stdin: PASSWORD },
      { name: 'url', args: [...url, 'off', '3'], stdin: PASSWORD },
      { name: 'byName', args: ['--url', `localhost:${port}`, ...typed, 'off', '3'], stdin: PASSWORD },
      { name: 'cycle', args: [...url, 'cycle', '3'], stdin: PASSWORD },
      { name: 'switch', args: [...url, 'switch', '3=off'], stdin: PASSWORD },
      { name: 'reboot', args: [...url, 'reboot', '--yes'], stdin: PASSWORD },
      {
        name: 'newUser',
        args: [...url, 'user', 'add', 'mallory', '--password-stdin', '--outlets', '3'],
        stdin: `${PASSWORD}\nmallorys-pw`,
      },
      {
        name: 'autoping',
        args: ['--controller', 'Bench 0', 'autoping', 'add', '10.0.0.5', '--outlets', '3'],
      },
      { name: 'free', args: [...url, 'off', '4'], stdin: PASSWORD },
    ],
    first.home,
  );
  const sentence =
    /^plugboard: Outlet 3 on Bench 0 is reserved by alice until [0-9: -]+: flashing firmware\. Ask alice to release it.*\[RESERVED\]$/;
  expect(r.saved!.code, r.saved!.stderr).toBe(5);
  const forms = [
    'reuse',
    'user',
    'typed',
    'url',
    'byName',
    'cycle',
    'switch',
    'reboot',
    'newUser',
    'autoping',
  ];
  for (const name of forms) {
    const step = r[name]!;
    expect(step.code, `${name}: ${step.stderr}`).toBe(r.saved!.code);
    expect(problems(step), name).toEqual([expect.stringMatching(sentence)]);
  }
  // The login that was not used is said.
  expect(r.user!.stderr).toContain(
    'plugboard: Bench 0 is a saved controller, so this goes through Plugboard, which logs in to it as admin: --user guest was not used.',
  );
  // Nothing reached outlet 3, nor gave it to a new login or to AutoPing.
  expect(e.device.users().map((u) => u.name)).not.toContain('mallory');
  expect(e.device.autoping().items).toEqual([]);
  expect(e.device.outlet(2).state).toBe(true);
  expect(e.device.outlet(2).physicalState).toBe(true);

  // A free outlet switched with a one-off login is the command line's action in the log.
  expect(r.free!.code, r.free!.stderr).toBe(0);
  expect(e.device.outlet(3).state).toBe(false);
  const log = storedActivity(first.configDir);
  expect(log.filter((x) => x.outlet === 4 && x.result === 'ok')).toEqual([
    expect.objectContaining({ source: 'cli', who: osUserName(), controllerName: 'Bench 0' }),
  ]);
  for (const step of Object.values(r)) expect(step.stdout + step.stderr).not.toContain(PASSWORD);
});
