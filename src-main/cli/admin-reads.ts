/**
 * What only an administrator's login reads of a unit (scripts and threads, users, SSH, the relay's
 * timing), through the Core: a Core in this process reads them for the command (a context with
 * `adminReads`, as when a window shows the controller); a running service shows what it last read.
 */
import type { ControllerState, ControllerSummary } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import type { CommandContext } from './command-context';
import { withTarget } from './core-route';
import { readState } from './state-watch';

/** Run `work` on the command's controller once the administrator's reads are in (or known impossible). */
export async function withAdminState(
  context: CommandContext,
  work: (controller: ControllerSummary, state: ControllerState) => Promise<void>,
): Promise<void> {
  await withTarget({ ...context, adminReads: true }, async (core, controller) => {
    const state = await readState(core, controller.id, controller.name, (s) =>
      s.capabilities === null ? false : !s.capabilities.isAdmin || s.users !== null || !core.inProcess,
    );
    await work(controller, state);
  });
}

/** `value`, or the reason it cannot be shown: this login is no administrator, or a service has not read it. */
export function adminRead<T>(
  controller: ControllerSummary,
  state: ControllerState,
  value: T | null,
  what: string,
): T {
  if (state.capabilities?.isAdmin === false) {
    const login = controller.auth === 'token' ? 'this access token' : `the login ${controller.user}`;
    throw new PlugboardError(
      'FORBIDDEN',
      `Only an administrator may read ${what} of ${controller.name}, and ${login} is not one.`,
      undefined,
      { action: "Log in as one of the controller's administrators (--user)." },
    );
  }
  if (value === null) {
    throw new PlugboardError(
      'NOT_FOUND',
      `The Plugboard service has not read ${what} of ${controller.name}: it reads them while a window shows the controller.`,
      undefined,
      { action: `Open ${controller.name} in Plugboard's window or web page, then run the command again.` },
    );
  }
  return value;
}
