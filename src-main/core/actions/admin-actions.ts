/**
 * Scripts, users, SSH, relay timing, reboot and the API tree on one controller. The controller decides who may do
 * what (a non-administrator gets its FORBIDDEN); every action is recorded in the activity log, never
 * with a password.
 */
import type { TreeNode } from '../../../src-preload/model';
import { callExpression } from '../../dli/script-source';
import type { RelayTimingChange } from '../../dli/api-settings';
import type { NewUser, ScriptArgument } from '../../dli/types';
import { contractError } from './outlet-actions';
import type { Actor } from '../../../src-preload/model';
import type { ControllerSession } from '../session/session';
import { isOwnUser } from './users-own';

export async function recorded<T>(
  session: ControllerSession,
  action: string,
  actor: Actor,
  work: () => Promise<T>,
): Promise<T> {
  const entry = { outlet: null, action, actor };
  try {
    const value = await work();
    session.record({ ...entry, result: 'ok', error: null });
    return value;
  } catch (error) {
    session.record({ ...entry, result: 'error', error: contractError(error) });
    throw error;
  }
}

export async function startScript(
  session: ControllerSession,
  name: string,
  args: readonly ScriptArgument[],
  actor: Actor,
): Promise<{ threadId: string }> {
  const client = await session.client();
  let shown: string;
  try {
    shown = callExpression(name, args) || `${name}()`;
  } catch {
    shown = `${name}(…)`;
  }
  const started = await recorded(session, `started script ${shown}`, actor, () =>
    client.scripts.start(name, args, { priority: 'interactive' }),
  );
  session.rereadSlow(['scripts']);
  return started;
}

export async function stopScripts(
  session: ControllerSession,
  threads: 'all' | readonly string[],
  actor: Actor,
): Promise<void> {
  const client = await session.client();
  const action = threads === 'all' ? 'stopped all scripts' : `stopped script thread ${threads.join(', ')}`;
  await recorded(session, action, actor, () => client.scripts.stop(threads, { priority: 'interactive' }));
  session.rereadSlow(['scripts']);
}

export async function createUser(session: ControllerSession, user: NewUser, actor: Actor): Promise<void> {
  const client = await session.client();
  const role = user.isAdmin ? 'administrator' : 'user';
  await recorded(session, `created ${role} "${user.name}"`, actor, () =>
    client.users.create(user, { priority: 'interactive' }),
  );
  session.rereadSlow(['users']);
}

export async function deleteUser(session: ControllerSession, name: string, actor: Actor): Promise<void> {
  const client = await session.client();
  await recorded(session, `deleted user "${name}"`, actor, () =>
    client.users.delete(name, { priority: 'interactive' }),
  );
  // The controller confirmed it: the list shows it at once, before any read.
  const users = session.state.users;
  if (users) session.patchLive({ users: users.filter((u) => u.name !== name) });
  // Plugboard's own login is gone: ask now, so the status says so (the login is refused) instead of
  // the old user and rights until the next poll, which would also fail to read the users again.
  if (isOwnUser(session.summary, name)) void session.refresh().catch(() => undefined);
  else session.rereadSlow(['users']);
}

export async function setSsh(session: ControllerSession, enabled: boolean, actor: Actor): Promise<void> {
  const client = await session.client();
  await recorded(session, enabled ? 'enabled SSH' : 'disabled SSH', actor, () =>
    client.system.setSsh(enabled, { priority: 'interactive' }),
  );
  session.patchLive({ sshEnabled: enabled });
}

/** Reboot: the state shows rebooting at once and the session probes until the controller is back. */
export async function reboot(session: ControllerSession, actor: Actor): Promise<void> {
  const client = await session.client();
  const since = session.now();
  await recorded(session, 'reboot', actor, () => client.system.reboot({ priority: 'interactive' }));
  session.markRebooting(since, client);
}

export async function readTree(session: ControllerSession, path: string, depth: number): Promise<TreeNode> {
  const client = await session.client();
  const read = await client.system.tree(path, depth, { priority: 'interactive' });
  return { path: read.path, depth: read.depth, value: read.value };
}

/** Change the relay's timing, then read it again so the state shows what the controller holds now. */
export async function setRelayTiming(
  session: ControllerSession,
  timing: RelayTimingChange,
  actor: Actor,
): Promise<void> {
  const client = await session.client();
  const parts = [
    timing.cycleDelay === undefined ? null : `cycle delay ${timing.cycleDelay} s`,
    timing.sequenceDelay === undefined ? null : `sequence delay ${timing.sequenceDelay} s`,
  ].filter((part) => part !== null);
  await recorded(session, `set the relay ${parts.join(' and ')}`, actor, () =>
    client.settings.setRelayTiming(timing, { priority: 'interactive' }),
  );
  const relayTiming = await client.system.relayTiming({ priority: 'interactive' }).catch(() => ({
    cycleDelay: timing.cycleDelay ?? session.state.relayTiming.cycleDelay,
    sequenceDelay: timing.sequenceDelay ?? session.state.relayTiming.sequenceDelay,
  }));
  session.patchLive({ relayTiming });
}
