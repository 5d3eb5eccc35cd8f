/**
 * Changing a user on a controller: outlet access, administrator, allowed and password, in one
 * request. A new password for the user Plugboard logs in as then replaces the saved one, only after the
 * controller accepted it: a refusal leaves the keychain as it was; a keychain that fails afterwards is
 * said plainly (the controller already has the new password) and the password is kept for this run.
 */
import type { Actor, CallParsed, CallResult, ControllerSummary } from '../../../src-preload/contract';
import { isPlugboardError } from '../../shared/errors';
import type { UserChange } from '../../dli/types';
import { recorded } from '../actions/admin-actions';
import type { CoreContext } from './core-context';
import type { ControllerSession } from '../session/session';
import { checkOwnUserDisallow, isOwnUser } from '../actions/users-own';

type UpdateInput = CallParsed<'users/update'>;

/** "outlet access, administrator and password": what a change touches, for the activity log. */
function changedWords(change: UserChange): string {
  const words = [
    change.outletAccess && 'outlet access',
    change.isAdmin !== undefined && (change.isAdmin ? 'made administrator' : 'no longer administrator'),
    change.isAllowed !== undefined && (change.isAllowed ? 'allowed' : 'not allowed'),
    change.password !== undefined && 'password',
  ].filter((word): word is string => typeof word === 'string');
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}

export async function updateUser(
  ctx: CoreContext,
  session: ControllerSession,
  input: UpdateInput,
  actor: Actor,
): Promise<CallResult<'users/update'>> {
  const change: UserChange = {
    ...(input.password === undefined ? {} : { password: input.password }),
    ...(input.isAdmin === undefined ? {} : { isAdmin: input.isAdmin }),
    ...(input.isAllowed === undefined ? {} : { isAllowed: input.isAllowed }),
    ...(input.outletAccess === undefined ? {} : { outletAccess: input.outletAccess }),
  };
  if (change.isAllowed === false)
    checkOwnUserDisallow(session.summary, input.name, input.confirmOwnUser === true);
  const client = await session.client();
  await recorded(session, `changed user "${input.name}": ${changedWords(change)}`, actor, () =>
    client.users.update(input.name, change, { priority: 'interactive' }),
  );
  session.rereadSlow(['users']);
  const summary = session.summary;
  if (change.password === undefined || !isOwnUser(summary, input.name)) return { warning: null };
  const warning = await keepNewPassword(ctx, summary, change.password);
  // The session's client still logs in with the old password: connect again with the new one.
  const latest = ctx.registry.get(summary.id) ?? summary;
  await ctx.sessions.start(latest);
  return { warning };
}

/** Save the new password of Plugboard's own user where the old one was; a sentence when that failed. */
async function keepNewPassword(
  ctx: CoreContext,
  summary: ControllerSummary,
  password: string,
): Promise<string | null> {
  const demo = ctx.demos.get(summary.id);
  if (demo) {
    demo.password = password;
    return null;
  }
  if (ctx.sessionSecrets.has(summary) || !summary.hasSecret) {
    ctx.sessionSecrets.keep(summary, password);
    return null;
  }
  try {
    await ctx.registry.update(summary.id, {}, password);
    return null;
  } catch (error) {
    ctx.sessionSecrets.keep(summary, password);
    const why = isPlugboardError(error) ? error.message : String(error);
    ctx.log(
      `the new password of ${summary.user} on ${summary.name} could not be saved in the keychain`,
      error,
    );
    return `${summary.name} accepted the new password for ${summary.user}, but Plugboard could not save it in the keychain (${why}). Plugboard uses the new password until it stops; then it will ask for it again. Fix the keychain and enter the new password in ${summary.name}'s System tab (Connection) to keep it.`;
  }
}
