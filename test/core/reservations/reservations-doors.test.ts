/**
 * Reservations have one door: what a group or controller reservation covers is fixed when it is taken,
 * removing a reserved controller is refused for anyone but the holder (whose removal is a recorded
 * break), and a new unit user or an AutoPing item cannot be handed a reserved outlet by someone else.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContractError, Group, Reservation, Result } from '../../../src-preload/contract';
import type { Caller } from '../../../src-preload/model';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { RESERVATIONS_KEY } from '../../../src-main/core/reservations/reservations';
import { addController, cleanUp, emulator, newCore, until, type CoreHarness } from '../harness';

afterEach(cleanUp);

const HOUR = 3_600_000;
const alice: Caller = { door: 'window', who: 'alice', role: 'admin' };
const bob: Caller = { door: 'cli', who: 'bob', role: 'admin' };

function as<T>(h: CoreHarness, actor: Caller, name: string, input: unknown): Promise<Result<T>> {
  return dispatch(h.core.handlersAs(actor), name, input, () => undefined) as Promise<Result<T>>;
}
async function okAs<T>(h: CoreHarness, actor: Caller, name: string, input: unknown): Promise<T> {
  const result = await as<T>(h, actor, name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}
function refusal(result: Result<unknown>): ContractError {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}

/** Two benches and group "Rack 7" = Bench A:1 + Bench B:2, every outlet off. */
async function lab() {
  const a = await emulator({ initialStates: Array(8).fill(false), autoping: true });
  const b = await emulator({ initialStates: Array(8).fill(false) });
  const h = newCore({ user: 'alice' });
  const ca = await addController(h, a, { name: 'Bench A' });
  const cb = await addController(h, b, { name: 'Bench B' });
  const group = await h.ok<Group>('groups/save', {
    name: 'Rack 7',
    members: [
      { controllerId: ca.id, outlet: 1 },
      { controllerId: cb.id, outlet: 2 },
    ],
  });
  return { a, b, h, ca, cb, group };
}

describe('what a reservation covers', () => {
  it('a group’s reservation keeps covering the outlets it had when taken, after the group is edited or removed', async () => {
    const { a, b, h, ca, cb, group } = await lab();
    const taken = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'group', groupId: group.id },
      reason: 'rack maintenance',
      durationMs: HOUR,
    });
    expect(taken.covers).toEqual([
      { controllerId: ca.id, outlet: 1 },
      { controllerId: cb.id, outlet: 2 },
    ]);

    // Edited to other outlets: the reserved ones stay reserved; the new member was never reserved.
    await okAs(h, bob, 'groups/save', {
      id: group.id,
      name: 'Rack 7',
      members: [{ controllerId: ca.id, outlet: 5 }],
    });
    const edited = refusal(await as(h, bob, 'outlets/set', { controllerId: ca.id, outlets: [1], on: true }));
    expect(edited.code).toBe('RESERVED');
    expect(edited.message).toMatch(/^Outlet 1 on Bench A is reserved by alice until .*: rack maintenance\.$/);
    await okAs(h, bob, 'outlets/set', { controllerId: ca.id, outlets: [5], on: true });

    // Removed: still covering both outlets, still listed as it was.
    await okAs(h, bob, 'groups/remove', { id: group.id });
    expect(refusal(await as(h, bob, 'outlets/cycle', { controllerId: cb.id, outlet: 2 })).message).toMatch(
      /^Outlet 2 on Bench B is reserved by alice/,
    );
    expect(refusal(await as(h, bob, 'system/reboot', { controllerId: ca.id })).message).toMatch(
      /^Outlet 1 on Bench A is reserved by alice/,
    );
    expect(await okAs(h, bob, 'reservations/list', {})).toEqual([taken]);
    expect(a.device.outlets()[0]!.state).toBe(false);
    expect(b.device.outlets()[1]!.state).toBe(false);
    // The holder's release is logged on both controllers, the group named as no longer saved.
    await okAs(h, alice, 'reservations/release', { id: taken.id });
    expect(
      h
        .activity()
        .filter((e) => e.action.endsWith('reservation released'))
        .map((e) => [e.controllerName, e.outlet, e.action]),
    ).toEqual([
      ['Bench A', 1, 'a group that is no longer saved: reservation released'],
      ['Bench B', 2, 'a group that is no longer saved: reservation released'],
    ]);
  });

  it('a reservation saved before what it covers was kept is expanded on the first read, written back, and kept so', async () => {
    const { h, ca, cb, group } = await lab();
    const now = Date.now();
    h.store.set(RESERVATIONS_KEY, [
      {
        id: 'r-old',
        target: { kind: 'group', groupId: group.id },
        holder: 'alice',
        door: 'window',
        reason: 'from an older Plugboard',
        createdAt: now,
        expiresAt: now + HOUR,
      },
    ]);
    const listed = await okAs<Reservation[]>(h, bob, 'reservations/list', {});
    const covers = [
      { controllerId: ca.id, outlet: 1 },
      { controllerId: cb.id, outlet: 2 },
    ];
    expect(listed.map((r) => r.covers)).toEqual([covers]);
    // Written back in the background: a backstop well above the moment it takes.
    await expect
      .poll(() => (h.store.get<{ covers?: unknown }[]>(RESERVATIONS_KEY, [])[0] ?? {}).covers, {
        timeout: 15_000,
        interval: 10,
      })
      .toEqual(covers);
    await okAs(h, bob, 'groups/save', {
      id: group.id,
      name: 'Rack 7',
      members: [{ controllerId: ca.id, outlet: 4 }],
    });
    expect(
      refusal(await as(h, bob, 'outlets/set', { controllerId: cb.id, outlets: [2], on: true })).code,
    ).toBe('RESERVED');
  });
});

describe('removing a reserved controller', () => {
  it('is refused for anyone but the holder; the holder’s removal ends the reservation as a recorded break', async () => {
    const { a, h, ca, cb, group } = await lab();
    const whole = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'controller', controllerId: ca.id },
      reason: 'soak test',
      durationMs: HOUR,
    });
    const rack = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'group', groupId: group.id },
      reason: 'rack maintenance',
      durationMs: HOUR,
    });

    const refused = refusal(await as(h, bob, 'controllers/remove', { id: ca.id }));
    expect(refused.code).toBe('RESERVED');
    expect(refused.message).toMatch(/^Bench A is reserved by alice until .*: soak test\.$/);
    expect((await h.ok<{ id: string }[]>('controllers/list', {})).map((c) => c.id)).toContain(ca.id);

    const changes = h.all('reservations/changed').length;
    await okAs(h, alice, 'controllers/remove', { id: ca.id });
    // The controller's reservation is gone; the group's keeps its outlet on Bench B.
    const after = await okAs<Reservation[]>(h, bob, 'reservations/list', {});
    expect(after).toEqual([{ ...rack, covers: [{ controllerId: cb.id, outlet: 2 }] }]);
    expect(h.all('reservations/changed').slice(changes).at(-1)).toEqual(after);
    expect(
      h
        .activity()
        .filter((e) => e.action.startsWith('broke') || e.action.includes(': broke'))
        .map((e) => [e.who, e.controllerName, e.outlet, e.action]),
    ).toEqual([
      ['alice', 'Bench A', null, 'broke the reservation of alice: Bench A was removed from Plugboard.'],
      [
        'alice',
        'Bench A',
        1,
        'group "Rack 7": broke the reservation of alice: Bench A was removed from Plugboard.',
      ],
    ]);
    expect(whole.id).not.toBe(rack.id);

    // Added back (a new id): nobody's reservation covers it now, and none is listed covering nothing.
    const again = await addController(h, a, { name: 'Bench A' });
    await okAs(h, bob, 'outlets/set', { controllerId: again.id, outlets: [1], on: true });
    expect(a.device.outlets()[0]!.state).toBe(true);
  });
});

describe('giving a reserved outlet to a unit user or to AutoPing', () => {
  it('refuses someone else’s new user or user change with access to it, and an AutoPing item that would cycle it', async () => {
    const { a, h, ca } = await lab();
    await okAs(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: ca.id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: HOUR,
    });
    const user = { controllerId: ca.id, password: 'S3cret-for-tech', isAllowed: true };
    const reserved = /^Outlet 3 on Bench A is reserved by alice until .*: flashing firmware\.$/;

    const withAccess = refusal(
      await as(h, bob, 'users/create', {
        ...user,
        name: 'mallory',
        isAdmin: false,
        outletAccess: [false, false, true],
      }),
    );
    expect(withAccess).toMatchObject({ code: 'RESERVED', message: expect.stringMatching(reserved) });
    const asAdmin = refusal(
      await as(h, bob, 'users/create', { ...user, name: 'mallory', isAdmin: true, outletAccess: [] }),
    );
    expect(asAdmin.code).toBe('RESERVED');
    expect(a.device.users().map((u) => u.name)).not.toContain('mallory');

    // Other outlets are free to give; a change that adds the reserved one is refused, one that only
    // removes access is not.
    await okAs(h, bob, 'users/create', {
      ...user,
      name: 'tech',
      isAdmin: false,
      outletAccess: [true, false, false],
    });
    await until(h, ca.id, (s) => s.users?.some((u) => u.name === 'tech') === true);
    const grant = refusal(
      await as(h, bob, 'users/update', {
        controllerId: ca.id,
        name: 'tech',
        outletAccess: [true, true, true],
      }),
    );
    expect(grant.code).toBe('RESERVED');
    expect(
      a.device
        .users()
        .find((u) => u.name === 'tech')!
        .outletAccess.slice(0, 3),
    ).toEqual([true, false, false]);
    await okAs(h, bob, 'users/update', { controllerId: ca.id, name: 'tech', outletAccess: [false] });
    // The holder may.
    await okAs(h, alice, 'users/update', {
      controllerId: ca.id,
      name: 'tech',
      outletAccess: [true, true, true],
    });

    const item = {
      addresses: ['10.0.0.5'],
      outlets: [2, 3],
      enabled: true,
      pingsBeforeEnabling: 1,
      resumptionTrial: false,
      script: '',
    };
    expect(refusal(await as(h, bob, 'autoping/save', { controllerId: ca.id, item })).message).toMatch(
      reserved,
    );
    expect(
      refusal(
        await as(h, bob, 'autoping/save', {
          controllerId: ca.id,
          item: { ...item, outlets: [], script: 'x' },
        }),
      ).code,
    ).toBe('RESERVED');
    expect(a.device.autoping().items).toEqual([]);
    // Disabled, or on free outlets, it is saved; the holder may add the reserved one.
    await okAs(h, bob, 'autoping/save', { controllerId: ca.id, item: { ...item, enabled: false } });
    await okAs(h, bob, 'autoping/save', { controllerId: ca.id, item: { ...item, outlets: [2] } });
    await okAs(h, alice, 'autoping/save', { controllerId: ca.id, number: 2, item });
    expect(a.device.autoping().items).toHaveLength(2);
  });
});
