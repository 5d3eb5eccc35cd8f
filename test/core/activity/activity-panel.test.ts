/**
 * The activity log answers "who did what to the Router" (issue 16 item 12): outlet names and numbers,
 * one batch per action over several outlets, scripts Plugboard started named as the actor, filters
 * (outlet name, person, time span) and the export (CSV, JSON lines).
 *
 * @real-unit: rerun against the emulator's real-unit profile for outlet names, switching and a script the
 * unit runs, read back from its outlets.
 */
import { afterEach, expect, it, vi } from 'vitest';
import type { ActivityEntry, Group } from '../../../src-preload/contract';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore, until } from '../harness';
import { LOADED } from '../loaded';
import { nextPoll, planned } from '../poll-steps';

afterEach(cleanUp);

it('records an all-on over 8 outlets as one batch of 8 entries, each with the outlet name and number', async () => {
  const emu = await emulator({ initialStates: Array<boolean>(8).fill(false) });
  const h = newCore({ user: 'alice' });
  const { id } = await addController(h, emu, { name: 'Rack 7' });
  await h.ok('outlets/rename', { controllerId: id, outlet: 3, name: 'Router' });
  await until(h, id, (s) => s.outlets[2]!.name === 'Router');
  await h.ok('outlets/set', { controllerId: id, outlets: 'all', on: true });
  await h.ok('outlets/set', { controllerId: id, outlets: [3], on: false });

  const ons = h.activity().filter((e) => e.action === 'on');
  expect(ons).toHaveLength(8);
  expect(new Set(ons.map((e) => e.batch)).size).toBe(1);
  expect(ons.find((e) => e.outlet === 3)).toMatchObject({
    outletName: 'Router',
    who: 'alice',
    source: 'window',
  });
  const off = h.activity().find((e) => e.action === 'off')!;
  // A later action is its own batch.
  expect(off.batch).toBe(off.id);
  expect(off.batch).not.toBe(ons[0]!.batch);

  // Filters: outlet name (part of it, any case), person, door, and a time span.
  const router = await h.ok<ActivityEntry[]>('activity/list', { outletName: 'rout' });
  expect(router.map((e) => e.action)).toEqual(['off', 'on', 'renamed to "Router"']);
  expect(await h.ok<ActivityEntry[]>('activity/list', { outletName: 'rout', who: 'bob' })).toEqual([]);
  const renamed = h.activity().find((e) => e.action.startsWith('renamed'))!;
  expect(
    await h.ok<ActivityEntry[]>('activity/list', { until: renamed.time - 1, outletName: 'Router' }),
  ).toEqual([]);
  expect(
    (await h.ok<ActivityEntry[]>('activity/list', { since: off.time, until: off.time })).map((e) => e.id),
  ).toContain(off.id);

  // Export: CSV with the name, the batch; JSON lines that parse back to the entries, oldest first.
  const csv = await h.ok<{ filename: string; text: string }>('activity/export', {
    outletName: 'Router',
    format: 'csv',
  });
  expect(csv.filename).toMatch(/^plugboard-activity-.+\.csv$/);
  const lines = csv.text.split('\r\n');
  expect(lines[0]).toBe(
    'time,controller,outlet,action,door,who,result,error_code,error,outlet_name,batch,count,last_time',
  );
  expect(lines[2]).toMatch(new RegExp(`^[^,]+Z,Rack 7,3,on,window,alice,ok,,,Router,${ons[0]!.batch},,$`));
  expect(lines[3]).toMatch(/,Rack 7,3,off,window,alice,ok,,,Router,\d+,,$/);
  const jsonl = await h.ok<{ filename: string; text: string }>('activity/export', {
    controllerId: id,
    format: 'jsonl',
  });
  expect(jsonl.filename).toMatch(/\.jsonl$/);
  const parsed = jsonl.text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as ActivityEntry);
  expect(parsed.map((e) => e.id)).toEqual(
    (await h.ok<ActivityEntry[]>('activity/list', { controllerId: id })).map((e) => e.id).reverse(),
  );
});

it('keeps a formula typed as an outlet name as text in the CSV', async () => {
  const emu = await emulator();
  const h = newCore({ user: 'alice' });
  const { id } = await addController(h, emu);
  await h.ok('outlets/rename', { controllerId: id, outlet: 1, name: '=HYPERLINK("x")' });
  await until(h, id, (s) => s.outlets[0]!.name.startsWith('='));
  await h.ok('outlets/set', { controllerId: id, outlets: [1], on: true });
  const { text } = await h.ok<{ text: string }>('activity/export', { outlet: 1, format: 'csv' });
  expect(text).toContain(`,"'=HYPERLINK(""x"")",`);
});

it('attributes what a script Plugboard started switches to that script and who started it, and not after it ended', async () => {
  const clock = new FakeClock();
  const emu = await emulator({ initialStates: Array<boolean>(8).fill(true) });
  const h = newCore({ user: 'alice', clock });
  await h.ok('settings/set', { pollIntervalMs: 500 });
  const { id } = await addController(h, emu);
  await until(h, id, (s) => s.scripts !== null);
  await planned(clock);
  await h.ok('scripts/start', { controllerId: id, function: 'cycle_an_outlet', args: [2, 1] });
  const byScript = { source: 'script', who: 'cycle_an_outlet (started by alice)', result: 'observed' };
  const seen = (action: string) => h.activity().find((e) => e.outlet === 2 && e.action === action);
  // The script switches outlet 2 off for a second of real time; a poll right after each change sees it.
  await vi.waitFor(() => expect(emu.device.outlet(1).transientState).toBe(false), LOADED);
  await nextPoll(clock);
  expect(seen('off (temporary)')).toMatchObject(byScript);
  await vi.waitFor(() => expect(emu.device.outlet(1).transientState).toBe(true), LOADED);
  await nextPoll(clock);
  expect(seen('on (temporary)')).toMatchObject(byScript);
  // Once a poll finds the thread gone, and one more poll has passed, a change at the keypad is the outside's.
  await vi.waitFor(() => expect(emu.device.threads()).toEqual([]), LOADED);
  await nextPoll(clock);
  expect(h.state(id)!.scripts!.threads).toEqual([]);
  await nextPoll(clock);
  emu.device.setOutlet(4, { state: false }); // index 4: outlet 5
  await nextPoll(clock);
  expect(h.activity().find((e) => e.outlet === 5)).toMatchObject({
    source: 'outside',
    who: 'outside Plugboard',
  });
  expect(
    (await h.ok<ActivityEntry[]>('activity/list', { who: 'cycle_an_outlet (started by alice)' })).every(
      (e) => e.outlet === 2,
    ),
  ).toBe(true);
});

it('records a group run over two controllers as one batch, and the next switch as its own', async () => {
  const [a, b] = [
    await emulator({ initialStates: Array<boolean>(8).fill(false) }),
    await emulator({ initialStates: Array<boolean>(8).fill(false) }),
  ];
  const h = newCore({ user: 'alice' });
  const bench = await addController(h, a, { name: 'Bench A' });
  const rack = await addController(h, b, { name: 'Rack 7' });
  const group = await h.ok<Group>('groups/save', {
    name: 'Scopes',
    members: [
      { controllerId: bench.id, outlet: 3 },
      { controllerId: bench.id, outlet: 4 },
      { controllerId: rack.id, outlet: 6 },
    ],
  });
  await h.ok('groups/run', { id: group.id, action: 'on' });
  await h.ok('outlets/set', { controllerId: rack.id, outlets: [7], on: true });
  const ons = h.activity().filter((e) => e.action === 'on');
  const run = ons.filter((e) => e.source === 'group');
  expect(run.map((e) => `${e.controllerName}:${e.outlet}`).sort()).toEqual([
    'Bench A:3',
    'Bench A:4',
    'Rack 7:6',
  ]);
  expect(new Set(run.map((e) => e.batch)).size).toBe(1);
  const after = ons.find((e) => e.outlet === 7)!;
  expect(after.batch).toBe(after.id);
});
