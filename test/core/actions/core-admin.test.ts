/**
 * Scripts, users, SSH and the API tree of a controller through the Core, against the emulator.
 *
 * @real-unit: rerun against the emulator's real-unit profile for scripts (started as a form on real units),
 * users and the API tree (relative $ref leaves on real units).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TreeNode } from '../../../src-preload/contract';
import { FakeClock } from '../fake-clock';
import { addController, addedAsNonAdmin, cleanUp, emulator, newCore, until } from '../harness';
import { LOADED } from '../loaded';
import { nextPoll, planned } from '../poll-steps';

afterEach(cleanUp);

describe('as an administrator', () => {
  it('starts and stops scripts; the threads show in the state', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    const functions = (await until(h, id, (s) => s.scripts !== null)).scripts!.functions;
    expect(functions).toContain('cycle_an_outlet');
    const { threadId } = await h.ok<{ threadId: string }>('scripts/start', {
      controllerId: id,
      function: 'cycle_an_outlet',
      args: [2, 30],
    });
    expect(emu.device.threads().map((t) => t.id)).toContain(threadId);
    await until(h, id, (s) => s.scripts!.threads.some((t) => t.id === threadId));
    expect(h.activity().at(-1)).toMatchObject({
      action: 'started script cycle_an_outlet(2,30)',
      result: 'ok',
    });
    await h.ok('scripts/stop', { controllerId: id, threads: 'all' });
    expect(emu.device.threads()).toEqual([]);
    await until(h, id, (s) => s.scripts!.threads.length === 0);
  });

  it('drops a thread that ends by itself at the next poll, long before the slow re-read', async () => {
    const clock = new FakeClock();
    const emu = await emulator();
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const { id } = await addController(h, emu);
    await until(h, id, (s) => s.scripts !== null);
    await planned(clock);
    const { threadId } = await h.ok<{ threadId: string }>('scripts/start', {
      controllerId: id,
      function: 'flash_a_light',
      args: [1, 1, 0.3],
    });
    await until(h, id, (s) => s.scripts!.threads.some((t) => t.id === threadId));
    await vi.waitFor(() => expect(emu.device.threads()).toEqual([]), LOADED);
    // The slow schedule re-reads scripts every 30 s; the running thread is followed on every poll instead.
    const before = clock.now();
    await nextPoll(clock);
    expect(clock.now() - before).toBeLessThan(30_000);
    const gone = h.state(id)!;
    expect(gone.scripts!.threads).toEqual([]);
    expect(gone.scripts!.functions).toContain('flash_a_light');
  });

  it('creates and deletes users, and never records their password', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    await h.ok('users/create', {
      controllerId: id,
      name: 'tech',
      password: 'S3cret-for-tech',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [true, false, true],
    });
    expect(emu.device.users().find((u) => u.name === 'tech')).toMatchObject({
      isAdmin: false,
      outletAccess: [true, false, true, false, false, false, false, false],
    });
    await until(h, id, (s) => s.users!.some((u) => u.name === 'tech'));
    const duplicate = await h.call('users/create', {
      controllerId: id,
      name: 'tech',
      password: 'x',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [],
    });
    expect(duplicate).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/already has a user named "tech"/) },
    });
    await h.ok('users/delete', { controllerId: id, name: 'tech' });
    expect(emu.device.users().map((u) => u.name)).not.toContain('tech');
    // The controller confirmed it: the state says so as the call answers, not after another read.
    expect(h.state(id)!.users!.map((u) => u.name)).not.toContain('tech');
    expect(JSON.stringify(h.events)).not.toContain('S3cret-for-tech');
    expect(h.activity().map((e) => e.action)).toEqual(
      expect.arrayContaining(['created user "tech"', 'deleted user "tech"']),
    );
  });

  it("deleting Plugboard's own login shows at once that the controller no longer lets it in", async () => {
    const emu = await emulator();
    emu.device.addUser({
      name: 'boss',
      password: 'boss-pw',
      isAdmin: true,
      outletAccess: Array(8).fill(true),
    });
    // Time stands still: no poll comes by itself, so only the delete can have asked again.
    const clock = new FakeClock();
    const h = newCore({ clock });
    const { id } = await addController(h, emu);
    await until(h, id, (s) => s.users !== null);
    await h.ok('users/delete', { controllerId: id, name: 'admin', confirmOwnUser: true });
    expect(h.state(id)!.users!.map((u) => u.name)).toEqual(['boss']);
    // Asked at once (what is due now runs; the next planned poll is an interval away): the login is refused.
    await clock.advance(0);
    await until(h, id, (s) => s.status === 'auth_failed');
  });

  it('switches SSH and reads the API tree', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    const enabled = !emu.device.config().sshEnabled;
    await h.ok('system/setSsh', { controllerId: id, enabled });
    expect(emu.device.config().sshEnabled).toBe(enabled);
    expect(h.state(id)!.sshEnabled).toBe(enabled);
    const tree = await h.ok<TreeNode>('system/tree', { controllerId: id, path: 'relay/outlets/0', depth: 1 });
    expect(tree).toMatchObject({
      path: 'relay/outlets/0/',
      depth: 1,
      // A real unit answers a depth-limited read with `$ref` leaves at the limit (relative; the client
      // hands them on absolute: src-main/dli/tree-refs.ts); the fast profile with values.
      value: expect.objectContaining({
        name:
          emu.device.behaviours.depthRefs === 'relative'
            ? { $ref: '/restapi/relay/outlets/0/name/' }
            : 'Outlet 1',
      }),
    });
    const missing = await h.call('system/tree', { controllerId: id, path: 'no/such/thing', depth: 1 });
    expect(missing).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});

describe('as a user who is not an administrator', () => {
  it('has no scripts or users in the state, and admin actions fail with FORBIDDEN', async () => {
    const { emu, h, id } = await addedAsNonAdmin();
    const state = h.state(id)!;
    expect(state.capabilities).toMatchObject({
      isAdmin: false,
      outletAccess: [true, true, false, false, false, false, false, false],
    });
    expect(state.scripts).toBeNull();
    expect(state.users).toBeNull();
    expect(state.sshEnabled).toBeNull();
    expect(state.outlets.map((o) => o.access)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);

    const script = await h.call('scripts/start', {
      controllerId: id,
      function: 'cycle_an_outlet',
      args: [1, 1],
    });
    expect(script).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/Only administrators/) },
    });
    const user = await h.call('users/delete', { controllerId: id, name: 'admin' });
    expect(user).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const reboot = await h.call('system/reboot', { controllerId: id });
    expect(reboot).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(h.state(id)!.status).toBe('online');

    // Outlets the user may switch switch; the others fail per outlet.
    const result = await h.ok<{ failed: { outlet: number; error: { code: string } }[] }>('outlets/set', {
      controllerId: id,
      outlets: [2, 3],
      on: false,
    });
    expect(result.failed.map((f) => [f.outlet, f.error.code])).toEqual([[3, 'FORBIDDEN']]);
    expect(emu.device.outlet(1).state).toBe(false);
    expect(
      h
        .activity()
        .filter((e) => e.result === 'error')
        .map((e) => e.error!.code),
    ).toEqual(expect.arrayContaining(['FORBIDDEN']));
  });
});
