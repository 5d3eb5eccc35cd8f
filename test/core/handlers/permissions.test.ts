/**
 * Roles, checked by the Core on every call (core/handlers/permissions.ts): an observer reads, an operator also
 * switches and reserves, an administrator does the rest; a door alone is the folder's owner, an
 * administrator. Through the real dispatcher, against an emulated unit: a refused call sends nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callNames, type Result } from '../../../src-preload/contract';
import {
  ROLES,
  type Caller,
  type Group,
  type Reservation,
  type SequenceRun,
} from '../../../src-preload/model';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { CALL_ROLES } from '../../../src-main/core/handlers/permissions';
import { addController, cleanUp, emulator, newCore, type CoreHarness } from '../harness';
import { delay, lab, latest, steps } from '../sequence-lab';

afterEach(cleanUp);

const HOUR = 3_600_000;
const prometheus: Caller = {
  door: 'json-api',
  who: 'prometheus',
  role: 'observer',
  credential: 'legacy-token',
};
const grafana: Caller = { door: 'cli', who: 'grafana', role: 'observer', credential: 'token' };
const ci: Caller = { door: 'cli', who: 'ci', role: 'operator', credential: 'token' };
const other: Caller = { door: 'cli', who: 'nightly', role: 'operator', credential: 'token' };

function as<T>(h: CoreHarness, caller: Caller, name: string, input: unknown): Promise<Result<T>> {
  return dispatch(h.core.handlersAs(caller), name, input, () => undefined) as Promise<Result<T>>;
}
async function okAs<T>(h: CoreHarness, caller: Caller, name: string, input: unknown): Promise<T> {
  const result = await as<T>(h, caller, name, input);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('the permission table', () => {
  it('gives every call of the contract a role', () => {
    for (const name of callNames) expect(ROLES, name).toContain(CALL_ROLES[name][0]);
    expect(Object.keys(CALL_ROLES).sort()).toEqual([...callNames].sort());
  });
});

describe('roles checked by the Core', () => {
  it('lets an observer read and refuses it every change, naming it, its role and what to write', async () => {
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const h = newCore();
    const { id, url } = await addController(h, emu, { name: 'Bench A' });

    expect(await okAs<unknown[]>(h, prometheus, 'controllers/list', {})).toHaveLength(1);
    await okAs(h, prometheus, 'app/snapshot', {});
    await okAs(h, prometheus, 'activity/list', {});

    const refused = await as(h, prometheus, 'outlets/set', { controllerId: id, outlets: [3], on: true });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: 'The token "prometheus" is an observer: it may read, not switch outlets.',
        action: expect.stringContaining('prometheus[operator]:<secret>') as string,
        detail: { role: 'observer', needs: 'operator', call: 'outlets/set' },
      },
    });
    // A token whose line names its role is told to use another token, not to rewrite its line.
    const named = await as(h, grafana, 'outlets/cycle', { controllerId: id, outlet: 3 });
    expect(named).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: 'The token "grafana" is an observer: it may read, not cycle outlets.',
        action: expect.stringContaining('a token with the operator role') as string,
      },
    });
    for (const [name, input] of [
      [
        'users/create',
        {
          controllerId: id,
          name: 'mallory',
          password: 'x1',
          isAdmin: true,
          isAllowed: true,
          outletAccess: [],
        },
      ],
      ['system/setSsh', { controllerId: id, enabled: true }],
      ['controllers/update', { id, url: 'http://127.0.0.1:9', reuseSecret: true }],
      ['controllers/remove', { id }],
      [
        'reservations/take',
        { target: { kind: 'controller', controllerId: id }, reason: 'x', durationMs: HOUR },
      ],
    ] as const)
      expect(await as(h, prometheus, name, input), name).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });

    // Nothing reached the unit or the saved controller.
    expect(emu.device.outlets().map((o) => o.state)).toEqual(Array(8).fill(false));
    expect(emu.device.users().map((u) => u.name)).not.toContain('mallory');
    expect(emu.device.config().sshEnabled).toBe(false);
    expect((await h.ok<{ url: string }[]>('controllers/list', {}))[0]!.url).toBe(url);
  });

  it('lets an operator switch and reserve, but not manage users, SSH, controllers or others’ reservations', async () => {
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const h = newCore();
    const { id, url } = await addController(h, emu, { name: 'Bench A' });

    await okAs(h, ci, 'outlets/set', { controllerId: id, outlets: [3], on: true });
    expect(emu.device.outlet(2).state).toBe(true);
    const mine = await okAs<Reservation>(h, ci, 'reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing',
      durationMs: HOUR,
    });
    const theirs = await okAs<Reservation>(h, other, 'reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 4 },
      reason: 'soak test',
      durationMs: HOUR,
    });

    const broken = await as(h, ci, 'reservations/break', { id: theirs.id, reason: 'mine now' });
    expect(broken).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: expect.stringMatching(
          /^The token "ci" is an operator: .*, not break the reservation nightly holds\.$/,
        ) as string,
        detail: { needs: 'admin' },
      },
    });
    expect((await h.ok<Reservation[]>('reservations/list', {})).map((r) => r.id)).toContain(theirs.id);
    // Its own it may break (or release).
    await okAs(h, ci, 'reservations/break', { id: mine.id, reason: 'done early' });

    for (const [name, input] of [
      [
        'users/create',
        {
          controllerId: id,
          name: 'mallory',
          password: 'x1',
          isAdmin: true,
          isAllowed: true,
          outletAccess: [],
        },
      ],
      ['system/setSsh', { controllerId: id, enabled: true }],
      ['controllers/update', { id, url: 'http://127.0.0.1:9', reuseSecret: true }],
      ['scripts/start', { controllerId: id, function: 'flash_a_light', args: [] }],
      ['groups/save', { name: 'Mine', members: [{ controllerId: id, outlet: 1 }] }],
    ] as const)
      expect(await as(h, ci, name, input), name).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', detail: { role: 'operator', needs: 'admin' } },
      });
    expect(emu.device.users().map((u) => u.name)).not.toContain('mallory');
    expect(emu.device.config().sshEnabled).toBe(false);
    expect((await h.ok<{ url: string }[]>('controllers/list', {}))[0]!.url).toBe(url);
    // An administrator breaks anyone's; a door alone is the folder's owner, an administrator.
    await h.ok('reservations/break', { id: theirs.id, reason: 'lab needs it' });
    expect(await h.ok('reservations/list', {})).toEqual([]);
  });

  it('lets an operator abort its own sequence run, not one someone else started', async () => {
    const { h, ca, cb } = await lab();
    const group = await h.ok<Group>('sequences/save', {
      name: 'Rack 7',
      steps: steps(ca, cb, [delay(3600), delay(0), delay(0)]),
    });
    const { runId } = await okAs<{ runId: string }>(h, other, 'sequences/run', {
      id: group.id,
      action: 'on',
    });
    expect(await as(h, ci, 'sequences/abort', { runId })).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: expect.stringMatching(/, not abort a sequence nightly started\.$/) as string,
      },
    });
    expect(latest(h, runId)?.status).toBe('running');
    expect(await okAs<SequenceRun>(h, other, 'sequences/abort', { runId })).toMatchObject({
      status: 'aborted',
    });
  });

  it('keeps one handler set per caller, and a different role is a different caller', () => {
    const h = newCore();
    expect(h.core.handlersAs(ci)).toBe(h.core.handlersAs({ ...ci }));
    expect(h.core.handlersAs(ci)).not.toBe(h.core.handlersAs({ ...ci, role: 'observer' }));
  });
});
