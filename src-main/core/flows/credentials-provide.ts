/**
 * One prompt for every controller that needs the same user's password: the password is
 * checked against each controller first, then kept for it (the keychain when asked to remember and one
 * answers, else this run only) and its session starts again. A controller that refuses it keeps
 * needing one and says so; the others are not held back by it.
 */
import type { CallParsed, CallResult, ControllerSummary } from '../../../src-preload/contract';
import { keepingOf } from '../../secrets';
import { PlugboardError, isPlugboardError } from '../../shared/errors';
import { credentialsOf } from '../../shared/credentials';
import { verify } from './controllers-add';
import type { CoreContext } from './core-context';
import { isKeychainTrouble } from '../session/credentials-needed';

type Outcome = CallResult<'controllers/providePassword'>['results'][number];

/** At most this many controllers are checked at once (a lab of 200 must not open 200 logins at once). */
const AT_ONCE = 8;

export async function providePassword(
  ctx: CoreContext,
  input: CallParsed<'controllers/providePassword'>,
): Promise<CallResult<'controllers/providePassword'>> {
  await ctx.started;
  const sameUser = ctx.registry.list().filter((c) => !c.demo && c.auth !== 'token' && c.user === input.user);
  const targets = input.ids
    ? sameUser.filter((c) => input.ids!.includes(c.id))
    : await filterAsync(sameUser, (c) => needsSecret(ctx, c));
  if (targets.length === 0) {
    throw new PlugboardError(
      'BAD_INPUT',
      input.ids
        ? `None of the controllers given logs in as ${input.user}.`
        : `No controller that logs in as ${input.user} needs a password.`,
      undefined,
      { action: 'Check the user name; `plugboard controllers list` shows who each controller logs in as.' },
    );
  }
  const results = new Map<string, Outcome>();
  const queue = [...targets];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      results.set(next.id, await giveTo(ctx, next, input.password, input.remember));
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, targets.length) }, worker));
  return { results: targets.map((c) => results.get(c.id)!) };
}

/**
 * Whether a controller waits for its secret: its session says so, or (a one-shot Core that has not
 * started it, e.g. the CLI's) no secret is available for it.
 */
async function needsSecret(ctx: CoreContext, summary: ControllerSummary): Promise<boolean> {
  if (ctx.sessions.stateOf(summary.id).status === 'password_needed') return true;
  if (ctx.sessions.find(summary.id) || ctx.sessionSecrets.has(summary)) return false;
  return (await secretWhere(ctx, summary.id)).where === 'missing' || !summary.hasSecret;
}

async function filterAsync<T>(items: readonly T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept = await Promise.all(items.map(keep));
  return items.filter((_, i) => kept[i]);
}

/** Check the password against one controller, keep it, and connect again. */
async function giveTo(
  ctx: CoreContext,
  summary: ControllerSummary,
  password: string,
  remember: boolean,
): Promise<Outcome> {
  const result = (ok: boolean, message: string | null): Outcome => ({
    id: summary.id,
    name: summary.name,
    ok,
    message,
  });
  let description;
  try {
    description = await verify(ctx, summary.url, credentialsOf(summary, password), summary.fingerprint);
  } catch (error) {
    if (isPlugboardError(error) && error.code === 'AUTH_FAILED')
      return result(
        false,
        `${summary.name} did not accept this password for ${summary.user}; it still needs one.`,
      );
    const why = isPlugboardError(error) ? error.message : String(error);
    return result(false, `${summary.name} could not check the password, so it still needs one: ${why}`);
  }
  let note: string | null = null;
  const current = ctx.registry.get(summary.id);
  if (!current) return result(false, `${summary.name} was removed meanwhile.`);
  if (remember) {
    try {
      await ctx.registry.update(current.id, {}, password);
      ctx.sessionSecrets.forget(current.id);
      if (keepingOf(ctx.secrets) === 'session')
        note = 'There is no keychain here, so it is kept until Plugboard stops.';
    } catch (error) {
      if (!isKeychainTrouble(error)) throw error;
      ctx.sessionSecrets.keep(current, password);
      note = `The keychain did not take it (${isPlugboardError(error) ? error.message : String(error)}), so it is kept until Plugboard stops.`;
    }
  } else ctx.sessionSecrets.keep(current, password);
  const latest = ctx.registry.get(summary.id) ?? current;
  if (!ctx.sessions.lazy || ctx.sessions.find(latest.id)) await ctx.sessions.start(latest, description);
  return result(true, note);
}

/** Where a saved controller's secret lives now (nothing of the secret leaves this function). */
export async function secretWhere(
  ctx: CoreContext,
  id: string,
): Promise<CallResult<'controllers/secretWhere'>> {
  const summary = ctx.registry.getOrThrow(id);
  if (ctx.demos.has(id) || ctx.sessionSecrets.has(summary)) return { where: 'session' };
  if (!summary.hasSecret)
    return { where: ctx.sessions.stateOf(id).status === 'password_needed' ? 'missing' : 'none' };
  try {
    const stored = await ctx.registry.storedSecret(id);
    return { where: stored === null ? 'missing' : keepingOf(ctx.secrets) };
  } catch {
    return { where: 'missing' };
  }
}
