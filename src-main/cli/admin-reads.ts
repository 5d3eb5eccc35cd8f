/**
 * What only an administrator's login reads of a unit (scripts and threads, users, SSH), through the
 * Core: once the controller is online, the Core reads them for the command unless it read them within
 * its slow interval (`controllers/readAdmin`), so a running service that no window shows answers as a
 * Core in this process does.
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
  await withTarget(context, async (core, controller) => {
    const online = await readState(core, controller.id, controller.name, (s) => s.capabilities !== null);
    const state = online.capabilities?.isAdmin
      ? await core.call('controllers/readAdmin', { id: controller.id })
      : online;
    await work(controller, state);
  });
}

/** `value`, or the reason it cannot be shown: this login is no administrator, or the unit gave nothing. */
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
      'FORBIDDEN',
      `${controller.name} refused to show ${what} to this login.`,
      undefined,
      { action: "Check that this login is one of the controller's administrators." },
    );
  }
  return value;
}
