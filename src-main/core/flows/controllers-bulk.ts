/**
 * Adding many controllers with one set of credentials: a range probe's finds or a CSV
 * file's rows. Each unit is verified with its own client, at most 8 at a time, and saved with its secret
 * bound to its own address and login (registry-envelope.ts), or not at all. The secrets go only to the
 * units listed, each unit's user getting its own password. Saves run one at a time, so names made from
 * the controllers' own ("Bench", "Bench 2") and the already-saved check never race.
 */
import type { BulkAddResult, CallParsed, ContractError } from '../../../src-preload/contract';
import { runPool } from '../../discovery/work-pool';
import { credentialsOf } from '../../shared/credentials';
import { hostPortKey, normaliseControllerUrl } from '../../shared/controller-address';
import { PlugboardError, internalError, isPlugboardError } from '../../shared/errors';
import { refuseSavedAddress, saveVerified, secretOf, userOf, verify } from './controllers-add';
import type { CoreContext } from './core-context';

/** Controllers verified at once: enough for a lab in seconds, few enough for a small network and CPU. */
export const BULK_CONCURRENCY = 8;

type AddManyInput = CallParsed<'controllers/addMany'>;
type Unit = AddManyInput['units'][number];
interface Login {
  kind: AddManyInput['auth']['kind'];
  user: string;
  secret: string;
}

/** The login of one unit: the shared one, or its own user with that user's password. */
function loginFor(input: AddManyInput, unit: Unit): Login {
  const shared = input.auth;
  if (shared.kind === 'token') {
    if (unit.user !== undefined) {
      throw new PlugboardError(
        'BAD_INPUT',
        `${unit.url} names user "${unit.user}", but this import logs in with an access token, which has no user.`,
        undefined,
        { action: 'Remove the user, or import with a user and password instead of a token.' },
      );
    }
    const token = secretOf(shared);
    if (!token) throw new PlugboardError('BAD_INPUT', 'Enter the access token to add these controllers.');
    return { kind: 'token', user: '', secret: token };
  }
  const user = unit.user ?? userOf(shared);
  const secret = input.passwords?.[user] ?? (user === shared.user ? shared.password : undefined);
  if (!secret) {
    throw new PlugboardError(
      'BAD_INPUT',
      `No password was given for user "${user}" (${unit.url}).`,
      undefined,
      {
        action: `Enter the password of "${user}" and add it again.`,
      },
    );
  }
  return { kind: shared.kind, user, secret };
}

function asContractError(ctx: CoreContext, error: unknown, url: string): ContractError {
  if (isPlugboardError(error)) return error.toContractError();
  return internalError(`add ${url}`, error, ctx.log).toContractError();
}

/** Indexes of units whose address an earlier unit of the same list already has. */
function repeats(units: readonly Unit[]): Map<number, number> {
  const first = new Map<string, number>();
  const repeated = new Map<number, number>();
  units.forEach((unit, index) => {
    const key = hostPortKey(normaliseControllerUrl(unit.url));
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else repeated.set(index, earlier);
  });
  return repeated;
}

/**
 * Verify and save every unit; one result per unit, in the order given. `onAdded` runs for each saved
 * one (the activity log).
 */
export async function addMany(
  ctx: CoreContext,
  input: AddManyInput,
  onAdded: (result: BulkAddResult) => void = () => undefined,
): Promise<BulkAddResult[]> {
  const results: BulkAddResult[] = input.units.map((unit) => ({
    url: unit.url,
    name: unit.name ?? null,
    added: null,
    error: null,
  }));
  const repeated = repeats(input.units);
  // Saves go one at a time and in the order given (the tab order), each after the unit before it is
  // saved or refused; the pool takes units in order, so the one waited for is always under way.
  const turns = input.units.map(() => {
    let resolve = (): void => undefined;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  });
  const myTurn = (index: number): Promise<void> =>
    index === 0 ? Promise.resolve() : turns[index - 1]!.promise;
  const indexes = input.units.map((_, index) => index);
  let checked = 0;
  const counted = (): void => {
    checked++;
    if (input.progressId)
      ctx.events.emit('controllers/addManyProgress', {
        progressId: input.progressId,
        checked,
        total: input.units.length,
      });
  };
  await runPool(indexes, BULK_CONCURRENCY, async (index) => {
    const unit = input.units[index]!;
    const result = results[index]!;
    try {
      const url = normaliseControllerUrl(unit.url);
      result.url = url;
      const earlier = repeated.get(index);
      if (earlier !== undefined) {
        throw new PlugboardError(
          'BAD_INPUT',
          `${url} is listed twice (also as number ${earlier + 1}); it is added once.`,
        );
      }
      refuseSavedAddress(ctx, url);
      const login = loginFor(input, unit);
      const description = await verify(
        ctx,
        url,
        credentialsOf({ auth: login.kind, user: login.user }, login.secret),
        unit.fingerprint ?? null,
      );
      await myTurn(index);
      result.added = await saveVerified(
        ctx,
        {
          url,
          auth: { kind: login.kind, user: login.user },
          secret: login.secret,
          name: unit.name,
          tags: unit.tags,
          fingerprint: unit.fingerprint,
        },
        description,
      );
      onAdded(result);
    } catch (error) {
      result.error = asContractError(ctx, error, unit.url);
    } finally {
      counted();
      // A refused unit still hands on its turn, but only once the units before it are done.
      void myTurn(index).then(() => turns[index]!.resolve());
    }
  });
  return results;
}
