/**
 * The CLI through the Core, against emulators with the real keychain: the addressing with one request
 * per controller, --wait, the exit-code table, and the activity log showing the CLI's actions as the
 * CLI's (door cli, this OS user).
 */
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ActivityEntry, ControllerSummary, Group } from '../../src-preload/model';
import { dispatch } from '../../src-main/core/index';
import { openSavedCore } from '../../src-main/core/saved-core';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { MemorySecretStore } from '../../src-main/secrets';
import { storedActivity } from '../core/stored-activity';
import { inKeychainSession, type StepResult } from './keychain-session';

const password = 'lab-pw-3301';
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

async function unit(sequenceDelay = 0): Promise<RunningEmulator> {
  const e = await startEmulator({ password, sequenceDelay, cycleDelay: 0.3 });
  for (let i = 0; i < 8; i++) e.device.setOutlet(i, { state: false });
  running.push(e);
  return e;
}

const add = (name: string, e: RunningEmulator) => ({
  name: `add ${name}`,
  args: ['--url', e.url, '--password-stdin', 'controllers', 'add', name],
  stdin: password,
});

/** Save a group through a Core over the same config folder (the CLI has no group commands). */
async function saveGroup(configDir: string, name: string, members: [string, number][]): Promise<void> {
  const core = await openSavedCore({
    shell: 'test',
    version: '0',
    configDir,
    secrets: new MemorySecretStore(),
    lazySessions: true,
    log: () => undefined,
  });
  try {
    const list = await dispatch(core.handlers, 'controllers/list', {});
    if (!list.ok) throw new Error(list.error.message);
    const saved = list.value as ControllerSummary[];
    const id = (controller: string) => saved.find((c) => c.name === controller)!.id;
    const group = await dispatch(core.handlers, 'groups/save', {
      name,
      members: members.map(([controller, outlet]) => ({ controllerId: id(controller), outlet })),
    });
    if (!group.ok) throw new Error(group.error.message);
    expect((group.value as Group).members).toHaveLength(members.length);
  } finally {
    await core.dispose();
  }
}

/** The state-changing requests a unit received (anything but GET). */
const writes = (e: RunningEmulator) => e.device.stats.log.filter((entry) => entry.method !== 'GET');

function expectCode(step: StepResult | undefined, code: number): void {
  expect(step!.code, `${step!.stdout}\n${step!.stderr}`).toBe(code);
}

it('addresses outlets by controller:number, range, name and group, one request per controller, and records them as the CLI', async () => {
  const [a, b] = [await unit(), await unit()];
  a.device.setOutlet(1, { name: 'Router' });
  const first = await inKeychainSession([add('Bench A', a), add('Rack 7', b)]);
  expectCode(first.results['add Bench A'], 0);
  expectCode(first.results['add Rack 7'], 0);
  await saveGroup(first.configDir, 'Lab lights', [
    ['Bench A', 8],
    ['Rack 7', 8],
  ]);
  a.device.stats.reset();
  b.device.stats.reset();

  const fan = await inKeychainSession(
    [{ name: 'on', args: ['on', 'Bench A:3', 'Rack 7:1-4', 'bench a:Router', '--json'] }],
    first.home,
  );
  expectCode(fan.results.on, 0);
  expect(a.device.outlets().map((o) => o.state)).toEqual([
    false,
    true,
    true,
    false,
    false,
    false,
    false,
    false,
  ]);
  expect(b.device.outlets().map((o) => o.state)).toEqual([
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
  // Three targets, two controllers: one request to each.
  expect(writes(a)).toHaveLength(1);
  expect(writes(b)).toHaveLength(1);
  const printed = fan.results.on!.stdout;
  expect(JSON.parse(printed)).toEqual([
    expect.objectContaining({ controller: 'Bench A', requested: [2, 3], failed: [] }),
    expect.objectContaining({ controller: 'Rack 7', requested: [1, 2, 3, 4], failed: [] }),
  ]);

  const { results: r } = await inKeychainSession(
    [
      { name: 'group', args: ['on', 'Lab lights'] },
      { name: 'legacy', args: ['--controller', 'Rack 7', 'off', '1', '2'] },
      { name: 'switch', args: ['--controller', 'Rack 7', 'switch', '5=on', '6=off'] },
      {
        name: 'userAdd',
        args: ['--controller', 'Bench A', 'user', 'add', 'bob', '--password-stdin', '--outlets', '1,2'],
        stdin: 'bobs-new-pw-42',
      },
      { name: 'userDelete', args: ['--controller', 'Bench A', 'user', 'delete', 'bob'] },
      { name: 'critical', args: ['--controller', 'Bench A', 'outlet-config', '4', '--critical', 'on'] },
      { name: 'relay', args: ['--controller', 'Bench A', 'relay', '--cycle-delay', '7'] },
      { name: 'ssh', args: ['--controller', 'Bench A', 'ssh', 'on'] },
      { name: 'script', args: ['--controller', 'Bench A', 'script', 'start', 'flash_a_light', '--json'] },
      { name: 'reboot', args: ['--controller', 'Bench A', 'reboot', '--yes'] },
      { name: 'activity', args: ['activity', '--json'] },
      { name: 'activityCli', args: ['activity', '--controller', 'Rack 7', '--door', 'cli', '--csv'] },
    ],
    first.home,
  );
  expectCode(r.group, 0);
  expect(a.device.outlet(7).state).toBe(true);
  expect(b.device.outlet(7).state).toBe(true);
  expectCode(r.legacy, 0);
  expect(
    b.device
      .outlets()
      .map((o) => o.state)
      .slice(0, 4),
  ).toEqual([false, false, true, true]);

  for (const step of ['switch', 'userAdd', 'userDelete', 'critical', 'relay', 'ssh', 'script', 'reboot'])
    expectCode(r[step], 0);
  expect(a.device.outlet(3).critical).toBe(true);
  expect(a.device.users().map((u) => u.name)).not.toContain('bob');
  expect(b.device.outlet(4).transientState).toBe(true);
  expect(a.device.config().sshEnabled).toBe(true);

  // The Core's log (and its file) has the CLI's switches as the CLI's, by this OS user.
  const me = userInfo().username;
  const entries = JSON.parse(r.activity!.stdout) as ActivityEntry[];
  for (const action of [
    'created user "bob"',
    'deleted user "bob"',
    'set the relay cycle delay 7 s',
    'enabled SSH',
    'started script flash_a_light()',
    'reboot',
  ]) {
    expect(entries.find((e) => e.controllerName === 'Bench A' && e.action === action)).toMatchObject({
      source: 'cli',
      who: me,
      result: 'ok',
    });
  }
  const switched = (name: string, outlet: number, action: string) =>
    entries.find((e) => e.controllerName === name && e.outlet === outlet && e.action === action);
  expect(switched('Rack 7', 5, 'on (temporary, together)')).toMatchObject({ source: 'cli', who: me });
  expect(switched('Bench A', 4, 'marked critical')).toMatchObject({ source: 'cli', who: me });
  expect(switched('Bench A', 3, 'on')).toMatchObject({ source: 'cli', who: me, result: 'ok' });
  expect(switched('Rack 7', 2, 'off')).toMatchObject({ source: 'cli', who: me, result: 'ok' });
  // A group named in the CLI is addressing, not a group run: the door is still the CLI.
  expect(switched('Bench A', 8, 'on')).toMatchObject({ source: 'cli', who: me });
  expect(storedActivity(first.configDir).some((e) => e.source === 'cli')).toBe(true);
  // The store's file and its write-ahead log, as bytes.
  const file = ['lab-store.sqlite', 'lab-store.sqlite-wal']
    .map((name) => join(first.configDir, name))
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path, 'latin1'))
    .join('');
  // Neither the controller's password nor the new user's reached an output or the log.
  for (const secret of [password, 'bobs-new-pw-42']) {
    expect(file).not.toContain(secret);
    for (const step of Object.values(r)) expect(step.stdout + step.stderr).not.toContain(secret);
  }
  const csv = r.activityCli!.stdout.trim().split('\r\n');
  expect(csv[0]).toBe(
    'time,controller,outlet,action,door,who,result,error_code,error,outlet_name,batch,count,last_time',
  );
  const rows = csv.slice(1);
  expect(rows.filter((row) => /^\d{4}-\d\d-\d\dT[^,]+Z,Rack 7,\d,(on|off),cli,/.test(row))).toHaveLength(7);
  // Adding it through the CLI is the CLI's too.
  expect(rows.some((row) => row.includes(',Rack 7,,added to Plugboard,cli,'))).toBe(true);
  expect(rows.every((row) => row.includes(',cli,'))).toBe(true);
});

it('follows the exit-code table: usage, unreachable, locked, critical refused, partial; --wait confirms or times out', async () => {
  const [a, b, gone] = [await unit(), await unit(1.5), await unit()];
  a.device.setOutlet(3, { state: true });
  a.device.setOutlet(4, { state: true });
  a.device.setCritical(4, true);
  a.device.lock(5);
  a.device.setOutlet(0, { name: 'Lamp' });
  a.device.setOutlet(1, { name: 'Lamp' });
  const first = await inKeychainSession([add('Bench A', a), add('Rack 7', b), add('Gone', gone)]);
  for (const step of Object.values(first.results)) expectCode(step, 0);
  await saveGroup(first.configDir, 'Rack 7', [['Bench A', 1]]);
  await gone.device.goOffline();

  const { results: r } = await inKeychainSession(
    [
      { name: 'bare', args: ['off', 'Bench A'] },
      { name: 'ambiguousGroup', args: ['on', 'Rack 7'] },
      { name: 'ambiguousName', args: ['on', 'Bench A:Lamp'] },
      { name: 'critical', args: ['off', 'Bench A:4-5'] },
      { name: 'criticalYes', args: ['off', 'Bench A:5', '--yes'] },
      { name: 'locked', args: ['on', 'Bench A:6'] },
      { name: 'unreachable', args: ['on', 'Gone:1'] },
      { name: 'partial', args: ['on', 'Bench A:7', 'Gone:1'] },
      { name: 'help', args: ['--help'] },
    ],
    first.home,
  );
  expectCode(r.bare, 2);
  expect(r.bare!.stderr).toContain('"Bench A:all"');
  expectCode(r.ambiguousGroup, 2);
  expect(r.ambiguousGroup!.stderr).toMatch(/both the group "Rack 7" and controller "Rack 7"/);
  expectCode(r.ambiguousName, 2);
  expect(r.ambiguousName!.stderr).toContain('names outlets 1 and 2 on Bench A');
  expectCode(r.critical, 7);
  expect(r.critical!.stderr).toContain(
    'Outlet 5 on Bench A is marked critical, so nothing was switched: confirm that it may lose power, then ask again. Run it again with --yes to confirm. [CRITICAL_UNCONFIRMED]',
  );
  // Refused before anything was sent: outlet 4 (not critical, switched off by no later step) stayed on.
  expect(a.device.outlet(3).state).toBe(true);
  expectCode(r.criticalYes, 0);
  expect(a.device.outlet(4).state).toBe(false);
  expectCode(r.locked, 6);
  expect(r.locked!.stderr).toContain('[LOCKED]');
  expectCode(r.unreachable, 3);
  expectCode(r.partial, 8);
  expect(a.device.outlet(6).state).toBe(true);
  for (const [code, words] of [
    [3, 'unreachable'],
    [5, 'reserved'],
    [7, 'refused'],
    [8, 'partial'],
  ] as const) {
    expect(r.help!.stdout).toMatch(new RegExp(`^  ${code}  ${words}`, 'm'));
  }

  // Rack 7 switches on one outlet every 1.5 s: --wait returns once the unit shows all four on.
  const waited = await inKeychainSession(
    [
      { name: 'wait', args: ['on', 'Rack 7:1-4', '--wait', '--json'] },
      { name: 'afterWait', args: ['--controller', 'Rack 7', 'outlets', '--json'] },
      { name: 'cycleTwo', args: ['cycle', 'Rack 7:3', 'Bench A:1-2'] },
      { name: 'short', args: ['off', 'Rack 7:1-4'] },
      { name: 'tooShort', args: ['on', 'Rack 7:1-4', '--wait', '--timeout', '0.5'] },
    ],
    first.home,
  );
  expectCode(waited.results.wait, 0);
  expect(JSON.parse(waited.results.wait!.stdout) as unknown).toEqual([
    expect.objectContaining({ controller: 'Rack 7', confirmed: true, unconfirmed: [] }),
  ]);
  const after = JSON.parse(waited.results.afterWait!.stdout) as { physical_state: boolean }[];
  expect(after.slice(0, 4).map((o) => o.physical_state)).toEqual([true, true, true, true]);
  // Two outlets of Bench A to cycle: refused before Rack 7's (valid) cycle was sent.
  expectCode(waited.results.cycleTwo, 2);
  expect(waited.results.cycleTwo!.stderr).toContain('cycle takes one outlet per controller');
  expect(writes(b).filter((entry) => entry.path.includes('cycle'))).toEqual([]);
  expectCode(waited.results.tooShort, 1);
  expect(waited.results.tooShort!.stderr).toMatch(
    /Rack 7: outlets? [\d, ]*4 not confirmed by the unit within 0\.5 s/,
  );
});
