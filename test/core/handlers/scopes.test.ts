/**
 * Scopes, checked by the Core beside the role (core/handlers/scopes.ts): an operator of tag rack-7
 * switches and reserves there and only looks elsewhere; a call that touches any outlet outside is refused
 * whole with one sentence naming the caller, its role and scope and the outlets outside, and the unit
 * hears nothing. Through the real dispatcher, against emulated units.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContractError, Result } from '../../../src-preload/contract';
import type { Caller, Reservation, Scope } from '../../../src-preload/model';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { addController, cleanUp, emulator, newCore, type CoreHarness } from '../harness';

afterEach(cleanUp);

const HOUR = 3_600_000;
const some = (scope: Partial<Omit<Extract<Scope, { kind: 'some' }>, 'kind'>>): Scope => ({
  kind: 'some',
  tags: [],
  controllers: [],
  outlets: [],
  ...scope,
});

function as<T>(h: CoreHarness, caller: Caller, name: string, input: unknown): Promise<Result<T>> {
  return dispatch(h.core.handlersAs(caller), name, input, () => undefined) as Promise<Result<T>>;
}
async function okAs<T>(h: CoreHarness, caller: Caller, name: string, input: unknown): Promise<T> {
  const result = await as<T>(h, caller, name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}
async function refused(h: CoreHarness, caller: Caller, name: string, input: unknown): Promise<ContractError> {
  const result = await as(h, caller, name, input);
  if (result.ok) throw new Error(`${name} went through: ${JSON.stringify(result.value)}`);
  return result.error;
}

/** Two units, every outlet off: Bench A tagged rack-7, Bench B untagged with outlet 4 named Router. */
async function twoBenches() {
  const off = Array<boolean>(8).fill(false);
  const [a, b] = [await emulator({ initialStates: off }), await emulator({ initialStates: off })];
  b.device.setOutlet(3, { name: 'Router' });
  const h = newCore({ user: 'alice' });
  const ca = await addController(h, a, { name: 'Bench A' });
  const cb = await addController(h, b, { name: 'Bench B' });
  await h.ok('controllers/update', { id: ca.id, tags: ['rack-7'] });
  await h.ok('controllers/refresh', { id: cb.id });
  const changes = () => [...a.device.stats.log, ...b.device.stats.log].filter((e) => e.method !== 'GET');
  return { a, b, h, ca, cb, changes };
}

describe('an operator of tag rack-7', () => {
  const ci: Caller = {
    door: 'json-api',
    who: 'ci',
    role: 'operator',
    credential: 'token',
    scope: some({ tags: ['rack-7'] }),
  };

  it('switches and reserves there, only looks elsewhere, and is refused there in one sentence', async () => {
    const { a, b, h, ca, cb, changes } = await twoBenches();
    await okAs(h, ci, 'outlets/set', { controllerId: ca.id, outlets: [2], on: true });
    expect(a.device.outlet(1).state).toBe(true);
    await okAs(h, ci, 'reservations/take', {
      target: { kind: 'controller', controllerId: ca.id },
      reason: 'nightly',
      durationMs: HOUR,
    });
    // Reads are never limited.
    expect(await okAs<unknown[]>(h, ci, 'controllers/list', {})).toHaveLength(2);
    await okAs(h, ci, 'app/snapshot', {});

    a.device.stats.reset();
    b.device.stats.reset();
    expect(await refused(h, ci, 'outlets/set', { controllerId: cb.id, outlets: [2, 4], on: true })).toEqual({
      code: 'FORBIDDEN',
      message:
        'The token "ci" (operator of tag rack-7) may not switch outlets: outlets 2 and 4 (Router) on Bench B are outside its scope.',
      detail: { role: 'operator', call: 'outlets/set', scope: true, outside: [`${cb.id}:2`, `${cb.id}:4`] },
      action: "Ask the service's administrator to widen its scope, or use a client whose scope reaches it.",
    });
    const reserve = await refused(h, ci, 'reservations/take', {
      target: { kind: 'outlet', controllerId: cb.id, outlet: 1 },
      reason: 'mine',
      durationMs: HOUR,
    });
    expect(reserve.message).toBe(
      'The token "ci" (operator of tag rack-7) may not reserve outlets: outlet 1 on Bench B is outside its scope.',
    );
    expect((await refused(h, ci, 'outlets/cycle', { controllerId: cb.id, outlet: 1 })).code).toBe(
      'FORBIDDEN',
    );
    expect(changes()).toEqual([]);
    expect(b.device.outlet(1).state).toBe(false);
    expect(await okAs<Reservation[]>(h, ci, 'reservations/list', {})).toHaveLength(1);
  });

  it('refuses a group or sequence reaching outside whole, before its first step', async () => {
    const { a, h, ca, cb, changes } = await twoBenches();
    const group = await h.ok<{ id: string }>('groups/save', {
      name: 'Both',
      members: [
        { controllerId: ca.id, outlet: 1 },
        { controllerId: cb.id, outlet: 3 },
      ],
    });
    const sequence = await h.ok<{ id: string }>('sequences/save', {
      name: 'Up',
      steps: [
        { controllerId: ca.id, outlets: [1], wait: { kind: 'delay', seconds: 0 } },
        { controllerId: cb.id, outlets: [3], wait: { kind: 'delay', seconds: 0 } },
      ],
    });
    a.device.stats.reset();
    const words = 'outlet 3 on Bench B is outside its scope.';
    expect((await refused(h, ci, 'groups/run', { id: group.id, action: 'on' })).message).toBe(
      `The token "ci" (operator of tag rack-7) may not run groups: ${words}`,
    );
    expect((await refused(h, ci, 'sequences/run', { id: sequence.id, action: 'on' })).message).toBe(
      `The token "ci" (operator of tag rack-7) may not run sequences: ${words}`,
    );
    const byGroup = await refused(h, ci, 'reservations/take', {
      target: { kind: 'group', groupId: group.id },
      reason: 'x',
      durationMs: HOUR,
    });
    expect(byGroup.message).toContain(words);
    expect(changes()).toEqual([]);
    expect(a.device.outlet(0).state).toBe(false);
  });
});

describe('a scope of single outlets', () => {
  it('reaches those outlets, polls their unit, and not the unit as a whole', async () => {
    const { h, cb, b } = await twoBenches();
    const bench: Caller = {
      door: 'cli',
      who: 'bench-bot',
      role: 'admin',
      credential: 'token',
      scope: some({ outlets: [{ controllerId: cb.id, outlet: 3 }] }),
    };
    await okAs(h, bench, 'outlets/set', { controllerId: cb.id, outlets: [3], on: true });
    expect(b.device.outlet(2).state).toBe(true);
    await okAs(h, bench, 'controllers/refresh', { id: cb.id });
    await okAs(h, bench, 'outlets/rename', { controllerId: cb.id, outlet: 3, name: 'DUT' });
    const all = await refused(h, bench, 'outlets/set', { controllerId: cb.id, outlets: 'all', on: false });
    expect(all.message).toBe(
      'The token "bench-bot" (admin of outlet 3 on Bench B) may not switch outlets: Bench B is outside its scope.',
    );
    expect((await refused(h, bench, 'system/reboot', { controllerId: cb.id })).detail).toMatchObject({
      outside: [cb.id],
    });
    expect(b.device.outlet(2).state).toBe(true);
  });
});

describe('an administrator of one controller', () => {
  it('manages that unit; the lab as a whole and the tags need a scope of everything', async () => {
    const { h, ca, cb } = await twoBenches();
    const admin: Caller = {
      door: 'json-api',
      who: 'rack-admin',
      role: 'admin',
      credential: 'token',
      scope: some({ controllers: [cb.id] }),
    };
    await okAs(h, admin, 'controllers/update', { id: cb.id, name: 'Bench B2' });
    const tags = await refused(h, admin, 'controllers/update', { id: cb.id, tags: ['rack-7'] });
    expect(tags.message).toBe(
      'The token "rack-admin" (admin of Bench B2) may not change a saved controller (its address, login or name): that reaches the whole lab, and only a scope of everything may.',
    );
    expect((await refused(h, admin, 'settings/set', { pollIntervalMs: 500 })).detail).toMatchObject({
      outside: 'lab',
    });
    // People are the lab's: a scoped administrator neither lists nor adds accounts.
    for (const [call, input] of [
      ['accounts/list', {}],
      ['accounts/add', { name: 'mallory', role: 'admin', scope: { kind: 'all' } }],
    ] as const)
      expect((await refused(h, admin, call, input)).detail).toMatchObject({ outside: 'lab' });
    expect((await refused(h, admin, 'controllers/remove', { id: ca.id })).code).toBe('FORBIDDEN');
    // Someone else's reservation: an administrator breaks it only inside its scope.
    const alice: Caller = { door: 'window', who: 'alice', role: 'operator' };
    const onA = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: ca.id, outlet: 1 },
      reason: 'a',
      durationMs: HOUR,
    });
    const onB = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: cb.id, outlet: 1 },
      reason: 'b',
      durationMs: HOUR,
    });
    expect((await refused(h, admin, 'reservations/break', { id: onA.id, reason: 'mine now' })).message).toBe(
      'The token "rack-admin" (admin of Bench B2) may not break the reservation alice holds: outlet 1 on Bench A is outside its scope.',
    );
    await okAs(h, admin, 'reservations/break', { id: onB.id, reason: 'mine now' });
    expect((await h.ok<Reservation[]>('reservations/list', {})).map((r) => r.id)).toEqual([onA.id]);
  });

  it('saves and removes only groups whose outlets, as saved and as they would become, are inside', async () => {
    const { h, ca, cb } = await twoBenches();
    const admin: Caller = {
      door: 'json-api',
      who: 'rack-admin',
      role: 'admin',
      credential: 'token',
      scope: some({ tags: ['rack-7'] }),
    };
    const mine = await okAs<{ id: string }>(h, admin, 'groups/save', {
      name: 'Rack 7',
      members: [{ controllerId: ca.id, outlet: 1 }],
    });
    const widened = await refused(h, admin, 'groups/save', {
      id: mine.id,
      name: 'Rack 7',
      members: [
        { controllerId: ca.id, outlet: 1 },
        { controllerId: cb.id, outlet: 2 },
      ],
    });
    expect(widened.message).toBe(
      'The token "rack-admin" (admin of tag rack-7) may not save groups: outlet 2 on Bench B is outside its scope.',
    );
    const theirs = await h.ok<{ id: string }>('groups/save', {
      name: 'Bench B',
      members: [{ controllerId: cb.id, outlet: 2 }],
    });
    // Replacing someone else's group with outlets of its own would take it over: refused too.
    expect(
      (
        await refused(h, admin, 'groups/save', {
          id: theirs.id,
          name: 'Mine now',
          members: [{ controllerId: ca.id, outlet: 2 }],
        })
      ).detail,
    ).toMatchObject({ outside: [`${cb.id}:2`] });
    expect((await refused(h, admin, 'groups/remove', { id: theirs.id })).code).toBe('FORBIDDEN');
    await okAs(h, admin, 'groups/remove', { id: mine.id });
    expect((await h.ok<{ id: string }[]>('groups/list', {})).map((g) => g.id)).toEqual([theirs.id]);
  });

  it('is refused by its role first, and a scope of everything changes nothing', async () => {
    const { h, cb } = await twoBenches();
    const viewer: Caller = {
      door: 'json-api',
      who: 'viewer',
      role: 'observer',
      credential: 'token',
      scope: some({ controllers: [cb.id] }),
    };
    expect(
      (await refused(h, viewer, 'outlets/set', { controllerId: cb.id, outlets: [1], on: true })).detail,
    ).toEqual({ role: 'observer', needs: 'operator', call: 'outlets/set' });
    const everything: Caller = { ...viewer, role: 'operator', scope: { kind: 'all' } };
    await okAs(h, everything, 'outlets/set', { controllerId: cb.id, outlets: [1], on: true });
  });
});
