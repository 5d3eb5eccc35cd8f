/**
 * The user Plugboard itself logs in as on a controller: deleting it cuts Plugboard off, so
 * the Core refuses it without an explicit confirmation, whichever door asks (window, web, CLI).
 */
import type { ControllerSummary } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';

/** Whether `name` is the user this saved controller logs in as (a token logs in as no user name). */
export function isOwnUser(summary: Pick<ControllerSummary, 'auth' | 'user'>, name: string): boolean {
  return summary.auth !== 'token' && summary.user === name;
}

/** What deleting Plugboard's own user breaks, in one sentence (the window's confirmation says it too). */
export function ownUserDeleteWarning(summary: Pick<ControllerSummary, 'name' | 'user'>): string {
  return `Plugboard logs in to ${summary.name} as ${summary.user}: after deleting it, Plugboard can no longer reach ${summary.name} until you give another user's password.`;
}

/** BAD_INPUT (detail.confirmOwnUser) unless the person confirmed deleting Plugboard's own user. */
export function checkOwnUserDelete(summary: ControllerSummary, name: string, confirmed: boolean): void {
  if (!isOwnUser(summary, name) || confirmed) return;
  throw new PlugboardError(
    'BAD_INPUT',
    ownUserDeleteWarning(summary),
    { confirmOwnUser: true, user: name },
    { action: 'Confirm that this user is to be deleted anyway (the command line: add --yes).' },
  );
}

/** BAD_INPUT (detail.confirmOwnUser) unless the person confirmed stopping Plugboard's own user from logging in. */
export function checkOwnUserDisallow(summary: ControllerSummary, name: string, confirmed: boolean): void {
  if (!isOwnUser(summary, name) || confirmed) return;
  throw new PlugboardError(
    'BAD_INPUT',
    `Plugboard logs in to ${summary.name} as ${summary.user}: once it may not log in, Plugboard can no longer reach ${summary.name} until you give another user's password.`,
    { confirmOwnUser: true, user: name },
    { action: 'Confirm that this user is to be stopped anyway (the command line: add --yes).' },
  );
}
