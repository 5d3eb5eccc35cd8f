/**
 * Sign-ins, sign-outs and refused sign-ins in the activity log, as entries about the lab service rather
 * than a controller (controllerId ''), by the name given and through the door it came, with the client's
 * address in the action; and what administrators change of the accounts, by whom. Refusals are counted like every refusal (the same name from the same address
 * within a minute is one entry), so a flood of guesses cannot push the log out.
 */
import type { ActivityLog } from '../activity/activity-log';
import { LAB_SERVICE } from '../activity/activity-types';
import type { Actor } from '../../../src-preload/model';
import type { SignInEvent } from '../accounts/accounts';

/** What the log names a name that is not an account name at all (it may be a password typed in the wrong box). */
const NOT_A_NAME = 'a name that is not an account name';

export { LAB_SERVICE };

/** An administrator's change to the accounts ("added account bob (operator, everything)"), by `actor`. */
export function recordAccountChange(activity: ActivityLog, actor: Actor, action: string): void {
  activity.add({ ...LAB_SERVICE, action, actor, result: 'ok', error: null });
}

export function recordSignIn(activity: ActivityLog, event: SignInEvent): void {
  const who = /^[a-z0-9._-]{1,64}$/.test(event.name) ? event.name : NOT_A_NAME;
  const entry = { ...LAB_SERVICE, actor: { door: event.door, who } };
  if (event.kind === 'sign-in refused')
    activity.refused({
      ...entry,
      action: `sign-in refused from ${event.address}`,
      result: 'error',
      error: event.error?.toContractError() ?? null,
    });
  else activity.add({ ...entry, action: `${event.kind} from ${event.address}`, result: 'ok', error: null });
}
