import { afterEach, describe, expect, it } from 'vitest';
import type {
  ContractError,
  Group,
  GroupRunResult,
  OutletActionResult,
  Reservation,
  Result,
} from '../../../src-preload/contract';
import type { Caller } from '../../../src-preload/model';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore, until, type CoreHarness } from '../harness';

afterEach(cleanUp);

const HOUR = 3_600_000;
// Administrators: a reservation binds every role (the roles themselves: permissions.test.ts).
const alice: Caller = { door: 'window', who: 'alice', role: 'admin' };
const aliceOnTheCli: Caller = { door: 'cli', who: 'alice', role: 'admin' };
const bob: Caller = { door: 'pdudaemon-http', who: 'bob', role: 'admin' };

/** A contract call as `actor`, through the real dispatcher. */
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

async function bench(clock?: FakeClock) {
  const emu = await emulator({ initialStates: Array(8).fill(false) });
  emu.device.setOutlet(2, { name: 'Router' });
  const h = newCore({ user: 'alice', ...(clock ? { clock } : {}) });
  const { id } = await addController(h, emu, { name: 'Bench A' });
  return { emu, h, id };
}

describe('reservations', () => {
  it('refuse someone else’s switch of a reserved outlet, naming the holder; the holder may switch from any door', async () => {
    const { emu, h, id } = await bench();
    await until(h, id, (s) => s.outlets[2]?.name === 'Router');
    const taken = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: HOUR,
    });
    expect(taken).toMatchObject({ holder: 'alice', door: 'window', reason: 'flashing firmware' });
    expect(taken.expiresAt - taken.createdAt).toBe(HOUR);
    expect(h.all('reservations/changed').at(-1)).toEqual([taken]);

    const refused = refusal(await as(h, bob, 'outlets/set', { controllerId: id, outlets: [2, 3], on: true }));
    expect(refused.code).toBe('RESERVED');
    expect(refused.message).toMatch(
      /^Outlet 3 \(Router\) on Bench A is reserved by alice until [0-9: -]+: flashing firmware\.$/,
    );
    expect(refused.detail).toMatchObject({
      holder: 'alice',
      reason: 'flashing firmware',
      reservationId: taken.id,
    });
    for (const call of [
      ['outlets/cycle', { controllerId: id, outlet: 3 }],
      ['outlets/switch', { controllerId: id, changes: [{ outlet: 3, on: true }] }],
      ['outlets/set', { controllerId: id, outlets: 'all', on: true }],
      ['system/reboot', { controllerId: id }],
      ['scripts/start', { controllerId: id, function: 'flash_a_light', args: [] }],
    ] as const) {
      expect(refusal(await as(h, bob, call[0], call[1])).code, call[0]).toBe('RESERVED');
    }
    // Nothing went to the unit.
    expect(emu.device.outlets().map((o) => o.state)).toEqual(Array(8).fill(false));
    // Someone else's other outlets are free; the holder switches through another door too.
    await okAs<OutletActionResult>(h, bob, 'outlets/set', { controllerId: id, outlets: [4], on: true });
    await okAs<OutletActionResult>(h, aliceOnTheCli, 'outlets/set', {
      controllerId: id,
      outlets: [3],
      on: true,
    });
    expect(emu.device.outlets().map((o) => o.state)).toEqual([
      false,
      false,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    // An overlapping reservation by someone else is refused; the holder may take more.
    const overlapping = refusal(
      await as(h, bob, 'reservations/take', {
        target: { kind: 'controller', controllerId: id },
        reason: 'mine',
        durationMs: HOUR,
      }),
    );
    expect(overlapping.code).toBe('RESERVED');
    await okAs(h, aliceOnTheCli, 'reservations/take', {
      target: { kind: 'controller', controllerId: id },
      reason: 'whole bench',
      durationMs: HOUR,
    });
    expect(
      refusal(await as(h, bob, 'outlets/set', { controllerId: id, outlets: [4], on: false })).message,
    ).toMatch(/^Outlet 4 on Bench A is reserved by alice until .*: whole bench\.$/);
  });

  it('only the holder releases; anyone breaks with a reason, logged as the breaker’s', async () => {
    const { h, id } = await bench();
    const taken = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'controller', controllerId: id },
      reason: 'soak test',
      durationMs: HOUR,
    });
    const notHis = refusal(await as(h, bob, 'reservations/release', { id: taken.id }));
    expect(notHis.code).toBe('RESERVED');
    expect(notHis.message).toContain('Only alice can release it.');
    expect(await okAs(h, alice, 'reservations/list', {})).toEqual([taken]);

    await okAs(h, aliceOnTheCli, 'reservations/release', { id: taken.id });
    expect(await okAs(h, bob, 'reservations/list', {})).toEqual([]);
    expect(refusal(await as(h, alice, 'reservations/release', { id: taken.id })).code).toBe('NOT_FOUND');

    const again = await okAs<Reservation>(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 1 },
      reason: 'soak test',
      until: Date.now() + HOUR,
    });
    expect(refusal(await as(h, bob, 'reservations/break', { id: again.id, reason: '  ' })).code).toBe(
      'BAD_INPUT',
    );
    await okAs(h, bob, 'reservations/break', { id: again.id, reason: 'alice went home, lab needs it' });
    expect(h.all('reservations/changed').at(-1)).toEqual([]);
    await okAs<OutletActionResult>(h, bob, 'outlets/set', { controllerId: id, outlets: [1], on: true });

    const log = h.activity().filter((e) => /reserv/.test(e.action));
    expect(
      log.map((e) => [e.who, e.source, e.outlet, e.action.replace(/until [0-9: -]+: /, 'until T: ')]),
    ).toEqual([
      ['alice', 'window', null, 'reserved until T: soak test.'],
      ['alice', 'cli', null, 'reservation released'],
      ['alice', 'window', 1, 'reserved until T: soak test.'],
      ['bob', 'pdudaemon-http', 1, 'broke the reservation of alice: alice went home, lab needs it.'],
    ]);
  });

  it('expire by the Core’s clock: gone from the list, announced, and switching is free again', async () => {
    const clock = new FakeClock(Date.now());
    const { h, id } = await bench(clock);
    await okAs(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 2 },
      reason: 'short job',
      durationMs: 5 * 60_000,
    });
    await clock.advance(5 * 60_000 - 1000);
    expect(refusal(await as(h, bob, 'outlets/cycle', { controllerId: id, outlet: 2 })).code).toBe('RESERVED');
    const announced = h.all('reservations/changed').length;
    await clock.advance(2000);
    expect(h.all('reservations/changed').slice(announced)).toEqual([[]]);
    expect(await okAs(h, bob, 'reservations/list', {})).toEqual([]);
    await okAs<OutletActionResult>(h, bob, 'outlets/set', { controllerId: id, outlets: [2], on: true });
  });

  it('refuse a whole group when someone else reserved any member, with nothing half-applied', async () => {
    const a = await emulator({ initialStates: Array(8).fill(false) });
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
    await okAs(h, alice, 'reservations/take', {
      target: { kind: 'outlet', controllerId: cb.id, outlet: 2 },
      reason: 'bisecting',
      durationMs: HOUR,
    });
    const refused = refusal(await as(h, bob, 'groups/run', { id: group.id, action: 'on' }));
    expect(refused.code).toBe('RESERVED');
    expect(refused.message).toMatch(/^Outlet 2 on Bench B is reserved by alice/);
    expect(a.device.outlets()[0]!.state).toBe(false);
    expect(b.device.outlets()[1]!.state).toBe(false);
    // The holder runs it; a group reservation covers its members for others.
    const run = await okAs<GroupRunResult>(h, aliceOnTheCli, 'groups/run', { id: group.id, action: 'on' });
    expect(run.results.every((r) => r.error === null)).toBe(true);
    await okAs(h, alice, 'reservations/take', {
      target: { kind: 'group', groupId: group.id },
      reason: 'rack maintenance',
      durationMs: HOUR,
    });
    expect(
      refusal(await as(h, bob, 'outlets/set', { controllerId: ca.id, outlets: [1], on: false })).message,
    ).toMatch(/^Outlet 1 on Bench A is reserved by alice until .*: rack maintenance\.$/);
    await okAs(h, bob, 'outlets/set', { controllerId: ca.id, outlets: [2], on: true });
  });

  it('refuse a take that makes no sense, naming what is wrong', async () => {
    const { h, id } = await bench();
    const noTime = refusal(
      await as(h, alice, 'reservations/take', {
        target: { kind: 'controller', controllerId: id },
        reason: 'x',
      }),
    );
    expect(noTime).toMatchObject({ code: 'BAD_INPUT' });
    expect(noTime.message).toContain('give either durationMs or until');
    const past = refusal(
      await as(h, alice, 'reservations/take', {
        target: { kind: 'controller', controllerId: id },
        reason: 'x',
        until: Date.now() - 1000,
      }),
    );
    expect(past.message).toBe('The reservation would end before it starts.');
    const unknown = refusal(
      await as(h, alice, 'reservations/take', {
        target: { kind: 'group', groupId: 'g-nope' },
        reason: 'x',
        durationMs: HOUR,
      }),
    );
    expect(unknown.code).toBe('NOT_FOUND');
    const outlet9 = refusal(
      await as(h, alice, 'reservations/take', {
        target: { kind: 'outlet', controllerId: id, outlet: 9 },
        reason: 'x',
        durationMs: HOUR,
      }),
    );
    expect(outlet9).toMatchObject({
      code: 'BAD_INPUT',
      message: 'Bench A has 8 outlets, so there is no outlet 9 to reserve.',
    });
  });
});
