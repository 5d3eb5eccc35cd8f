/**
 * What only an administrator's login reads (scripts, users, SSH), read on demand for a caller while no
 * window shows the controller (`controllers/readAdmin`): once, shared by callers at the same time, not
 * again within the slow interval, again after it; never for a login that is no administrator. Real HTTP
 * through a proxy that counts the unit's users reads; the schedule on a fake clock.
 */
import { afterEach, expect, it } from 'vitest';
import type { ControllerState } from '../../../src-preload/contract';
import { DEFAULT_TIMING } from '../../../src-main/core/session/poll-policy';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';
import { recordingProxy } from '../recording-proxy';

afterEach(cleanUp);

async function hiddenCore(user?: { name: string; password: string }) {
  const emu = await emulator();
  if (user)
    emu.device.addUser({
      name: user.name,
      password: user.password,
      isAdmin: false,
      outletAccess: Array(8).fill(false),
    });
  const usersReads: string[] = [];
  const proxy = await recordingProxy(emu.url, {
    hold: (req) => {
      if (req.url?.includes('/auth/users/')) usersReads.push(req.url);
      return undefined;
    },
  });
  const clock = new FakeClock();
  const h = newCore({ clock, visible: false });
  // The unit reached through the proxy: what the Core asks of it is seen on the way.
  const { id } = await addController(
    h,
    { ...emu, url: proxy.url },
    {
      name: 'Bench',
      ...(user ? { user: user.name, password: user.password } : {}),
    },
  );
  return { h, id, clock, usersReads, close: () => proxy.close() };
}

it('reads once for callers at the same time, not again within the slow interval, again after it', async () => {
  const { h, id, clock, usersReads, close } = await hiddenCore();
  try {
    expect(h.state(id)?.users).toBeNull();
    const [a, b] = await Promise.all([
      h.ok<ControllerState>('controllers/readAdmin', { id }),
      h.ok<ControllerState>('controllers/readAdmin', { id }),
    ]);
    expect(a.users?.map((u) => u.name)).toContain('admin');
    expect(a.scripts).not.toBeNull();
    expect(typeof a.sshEnabled).toBe('boolean');
    expect(b.users).toEqual(a.users);
    expect(usersReads).toHaveLength(1);

    await clock.advance(DEFAULT_TIMING.slowEveryMs - 1);
    await h.ok('controllers/readAdmin', { id });
    expect(usersReads).toHaveLength(1);
    await clock.advance(1);
    await h.ok('controllers/readAdmin', { id });
    expect(usersReads).toHaveLength(2);
  } finally {
    await close();
  }
});

it('asks nothing for a login that is no administrator', async () => {
  const { h, id, usersReads, close } = await hiddenCore({ name: 'bob', password: 'bobs-pw' });
  try {
    const state = await h.ok<ControllerState>('controllers/readAdmin', { id });
    expect(state.capabilities?.isAdmin).toBe(false);
    expect(state.users).toBeNull();
    expect(usersReads).toEqual([]);
  } finally {
    await close();
  }
});
