/**
 * Calls refused by the role or the scope are in the activity log, recorded by the Core whatever the
 * door: once, as the caller (door and who), with the Core's sentence, on the controller and outlet the
 * call would have touched (the lab service otherwise). Reads are never refused, so never logged. A
 * client hammering refused calls is counted, not listed: the same refusal within a minute is one
 * entry, and past a budget of different refusals a minute the rest are counted into one entry.
 * Through the contract's `handlersAs` and the real dispatcher, against an emulated unit, on a fake clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry, Caller, ControllerSummary } from '../../../src-preload/model';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore, type CoreHarness } from '../harness';

afterEach(cleanUp);

const rack7 = { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] } as const;
const ada: Caller = { door: 'json-api', who: 'ada', role: 'observer' };
const bob: Caller = { door: 'window', who: 'bob', role: 'operator', scope: rack7 };

async function lab() {
  const clock = new FakeClock(Date.UTC(2026, 10, 27, 9));
  const h = newCore({ clock });
  const a = await addController(h, await emulator({ initialStates: Array(8).fill(false) }), {
    name: 'Bench A',
  });
  const b = await addController(h, await emulator({ initialStates: Array(8).fill(false) }), {
    name: 'Bench B',
  });
  await h.ok<ControllerSummary>('controllers/update', { id: b.id, tags: ['rack-7'] });
  return { clock, h, a, b };
}

function as(h: CoreHarness, caller: Caller, name: string, input: unknown) {
  return dispatch(h.core.handlersAs(caller), name, input, () => undefined);
}

async function refusals(h: CoreHarness): Promise<ActivityEntry[]> {
  const all = await h.ok<ActivityEntry[]>('activity/list', { order: 'oldest' });
  return all.filter((e) => e.result === 'error');
}

describe('refusals of the role and the scope in the activity log', () => {
  it('records each refused attempt as the caller, in the Core’s words, where it would have acted', async () => {
    const { h, a, b } = await lab();
    expect(await as(h, ada, 'controllers/list', {})).toMatchObject({ ok: true });
    expect(await as(h, ada, 'activity/list', {})).toMatchObject({ ok: true });
    const observer = await as(h, ada, 'outlets/set', { controllerId: a.id, outlets: [3], on: true });
    const outside = await as(h, bob, 'outlets/cycle', { controllerId: a.id, outlet: 2 });
    const inside = await as(h, bob, 'outlets/set', { controllerId: b.id, outlets: [1], on: true });
    const people = await as(h, bob, 'accounts/list', {});
    const both = await as(h, ada, 'outlets/set', { controllerId: b.id, outlets: [1, 2], on: false });
    expect(inside).toMatchObject({ ok: true });

    const logged = await refusals(h);
    expect(logged.map((e) => [e.controllerName, e.outlet, e.source, e.who, e.action, e.count])).toEqual([
      ['Bench A', 3, 'json-api', 'ada', 'tried to switch outlets', 1],
      ['Bench A', 2, 'window', 'bob', 'tried to cycle outlets', 1],
      ['the lab service', null, 'window', 'bob', 'tried to see the accounts', 1],
      ['Bench B', null, 'json-api', 'ada', 'tried to switch outlets', 1],
    ]);
    // The entry carries the very refusal the caller was given.
    const answers = [observer, outside, people, both].map((r) => (r.ok ? null : r.error));
    expect(logged.map((e) => e.error)).toEqual(answers);
    expect(logged[1]!.error!.message).toBe(
      'bob (operator of tag rack-7) may not cycle outlets: outlet 2 on Bench A is outside its scope.',
    );
    expect(logged[0]!.controllerId).toBe(a.id);
    expect(logged[2]!.controllerId).toBe('');
  });

  it('counts a client hammering refused calls, and bounds the different ones it gets listed', async () => {
    const { clock, h, a } = await lab();
    for (let i = 0; i < 50; i++)
      await as(h, ada, 'outlets/set', { controllerId: a.id, outlets: [3], on: true });
    let logged = await refusals(h);
    expect(logged.map((e) => [e.outlet, e.count])).toEqual([[3, 50]]);

    // Thirty outlets more: the one already listed counts on, 19 more get entries (20 a minute), the
    // other 10 are counted into one entry about the lab service.
    for (let outlet = 1; outlet <= 30; outlet++)
      await as(h, ada, 'outlets/set', { controllerId: a.id, outlets: [outlet], on: true });
    logged = await refusals(h);
    expect(logged).toHaveLength(21);
    expect(logged[0]).toMatchObject({ outlet: 3, count: 51 });
    expect(logged.filter((e) => e.controllerName === 'Bench A').map((e) => e.outlet)).toEqual([
      3,
      1,
      2,
      ...Array.from({ length: 17 }, (_, i) => i + 4),
    ]);
    expect(logged.at(-1)).toMatchObject({
      controllerId: '',
      who: 'ada',
      source: 'json-api',
      action: 'more than 20 different refusals within a minute',
      count: 10,
      error: {
        code: 'FORBIDDEN',
        message:
          'ada was refused more than 20 different things within a minute: the others are counted here, not each listed.',
      },
    });
    // Another client has a budget of its own.
    await as(h, bob, 'outlets/set', { controllerId: a.id, outlets: [30], on: true });
    expect((await refusals(h)).at(-1)).toMatchObject({ who: 'bob', outlet: 30, count: 1 });

    // A minute on, the same refusals are new entries again.
    await clock.advance(60_000);
    await as(h, ada, 'outlets/set', { controllerId: a.id, outlets: [30], on: true });
    await as(h, ada, 'outlets/set', { controllerId: a.id, outlets: [3], on: true });
    const later = (await refusals(h)).slice(-2);
    expect(later.map((e) => [e.who, e.outlet, e.count])).toEqual([
      ['ada', 30, 1],
      ['ada', 3, 1],
    ]);
  });
});
