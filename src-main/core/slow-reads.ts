/**
 * The slow schedule's reads of one controller: scripts and their threads, users, SSH. The session runs
 * them on its timer; actions run them again after changing something.
 */
import type { ControllerState } from '../../src-preload/model';
import type { DliClient } from '../dli/client';
import { isPlugboardError } from '../shared/errors';

export type SlowPart = 'scripts' | 'users' | 'ssh' | 'threads';
/** Everything the slow schedule reads (`threads` alone is the cheap in-between read of running scripts). */
export const SLOW_PARTS: readonly SlowPart[] = ['scripts', 'users', 'ssh'];

/** Read scripts and threads, users and/or SSH in the background; what this login may not read is null. */
export async function readSlowParts(
  client: DliClient,
  parts: readonly SlowPart[],
  signal: AbortSignal,
  known: ControllerState['scripts'] = null,
): Promise<Partial<Pick<ControllerState, 'scripts' | 'users' | 'sshEnabled'>>> {
  const options = { signal, priority: 'background' as const };
  const forbiddenIsNull = <T>(read: Promise<T>): Promise<T | null> =>
    read.catch((error: unknown) => {
      if (isPlugboardError(error) && error.code === 'FORBIDDEN') return null;
      throw error;
    });
  const patch: Partial<Pick<ControllerState, 'scripts' | 'users' | 'sshEnabled'>> = {};
  if (parts.includes('scripts')) patch.scripts = await forbiddenIsNull(client.scripts.list(options));
  else if (parts.includes('threads') && known) {
    const threads = await forbiddenIsNull(client.scripts.threads(options));
    patch.scripts = threads ? { functions: known.functions, threads } : null;
  }
  if (parts.includes('users')) patch.users = await forbiddenIsNull(client.users.list(options));
  if (parts.includes('ssh')) patch.sshEnabled = await forbiddenIsNull(client.system.ssh(options));
  return patch;
}
