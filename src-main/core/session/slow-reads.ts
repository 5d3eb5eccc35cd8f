/**
 * The slow schedule's reads of one controller: scripts and their threads, users, SSH. The session runs
 * them on its timer; actions run them again after changing something.
 */
import type { ControllerState } from '../../../src-preload/model';
import type { DliClient } from '../../dli/client';
import { unlessForbidden } from '../../dli/shared-reads';

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
  const patch: Partial<Pick<ControllerState, 'scripts' | 'users' | 'sshEnabled'>> = {};
  if (parts.includes('scripts')) patch.scripts = await unlessForbidden(client.scripts.list(options));
  else if (parts.includes('threads') && known) {
    const threads = await unlessForbidden(client.scripts.threads(options));
    patch.scripts = threads ? { functions: known.functions, threads } : null;
  }
  if (parts.includes('users')) patch.users = await unlessForbidden(client.users.list(options));
  if (parts.includes('ssh')) patch.sshEnabled = await unlessForbidden(client.system.ssh(options));
  return patch;
}
