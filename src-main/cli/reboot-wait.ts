/**
 * `reboot` through the Core, and with --wait the wait until the unit answers again: the Core shows it
 * rebooting from the moment the unit accepts, probes it, and shows it online once it is really back
 * (reboot-watch.ts in the Core's session room). Loaded only by `reboot`.
 */
import type { ControllerSummary } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import type { CoreAccess } from './core-link';
import { StateWatch } from './state-watch';

/**
 * Reboot; with `waitMs`, resolve with how long the unit took to answer again (ms), else null at once.
 * Not back in time: UNREACHABLE (exit 3); the Core giving up first: its problem.
 */
export async function rebootAndWait(
  core: CoreAccess,
  controller: ControllerSummary,
  waitMs: number | null,
): Promise<number | null> {
  if (waitMs === null) {
    await core.call('system/reboot', { controllerId: controller.id });
    return null;
  }
  const watch = new StateWatch(core);
  try {
    // Watched before the reboot is asked: the Core shows it rebooting as soon as the unit accepts.
    let sawRebooting = false;
    const started = Date.now();
    await core.call('system/reboot', { controllerId: controller.id });
    const outcome = await watch.until(() => {
      const state = watch.latest(controller.id);
      if (!state) return undefined;
      if (state.status === 'rebooting' || state.rebootingSince !== null) {
        sawRebooting = true;
        return undefined;
      }
      if (!sawRebooting) return undefined;
      if (state.status === 'online') return { back: true as const };
      return state.problem ? { back: false as const, problem: state.problem } : undefined;
    }, waitMs);
    if (outcome?.back) return Date.now() - started;
    if (outcome?.problem) {
      const { code, message, action, detail } = outcome.problem;
      throw new PlugboardError(code, message, detail, action ? { action } : {});
    }
    throw new PlugboardError(
      'UNREACHABLE',
      `${controller.name} did not answer again within ${Math.round(waitMs / 1000)} s of the reboot.`,
      undefined,
      { action: 'Check its power and network; give more time with --timeout SECONDS.' },
    );
  } finally {
    watch.close();
  }
}
