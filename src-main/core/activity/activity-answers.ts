/**
 * Answered means kept: a call that changes something (a switch, a cycle, a reservation, a sequence's
 * start…) is answered only once the activity entries it recorded are in the lab store, so a service
 * killed the moment after it answered has not lost them. The entries a call records are the ones added
 * while it runs, in its own asynchronous context (AsyncLocalStorage): the poller's records (outside
 * changes, meter breaches) are added in the poller's context, never waited for, and keep their batching.
 * Work a call leaves running after its answer (a sequence's later steps, a poll it asked for) inherits
 * the context, but the call's scope is closed by then: those entries are written as usual.
 *
 * Refusals (someone else's reservation, a role) are not waited for: they changed nothing, and their
 * counting must stay cheap however many come.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Handlers } from '../../../src-preload/contract';
import type { ActivityEntry } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';

interface AnswerScope {
  readonly entries: ActivityEntry[];
  open: boolean;
}

const scopes = new AsyncLocalStorage<AnswerScope>();

/** An entry just recorded: the call under way (if any) waits for it before it answers. */
export function noteRecorded(entry: ActivityEntry): void {
  const scope = scopes.getStore();
  if (scope?.open) scope.entries.push(entry);
}

/** What the log offers: whether these entries are written (false: the write failed, they wait). */
export interface EntryKeeper {
  committed(entries: readonly ActivityEntry[]): Promise<boolean>;
}

/**
 * Run `call` and answer (its value or its error) once the entries it recorded are written. When the
 * store fails, the answer still goes out with the call's result (the change was made; refusing it now
 * would invite a retry that switches again), and the log says that its entries are not written yet:
 * they wait in memory and are written when the store answers again (activity-writer.ts).
 */
export async function answeredWhenKept<T>(
  keeper: EntryKeeper,
  log: Logger,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  const scope: AnswerScope = { entries: [], open: true };
  const settle = async () => {
    scope.open = false;
    if (scope.entries.length === 0) return;
    if (!(await keeper.committed(scope.entries)))
      log(
        `answered ${what} before its activity ${scope.entries.length === 1 ? 'entry was' : 'entries were'} written: the lab store does not take them now (they wait in memory and are written when it does)`,
      );
  };
  let value: T;
  try {
    value = await scopes.run(scope, call);
  } catch (error) {
    await settle();
    throw error;
  }
  await settle();
  return value;
}

/** Every call of `handlers`, answered once what it recorded is kept. */
export function answeringWhenKept(handlers: Handlers, keeper: EntryKeeper, log: Logger): Handlers {
  const kept: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, (input: unknown) => Promise<unknown>][])
    kept[name] = (input) => answeredWhenKept(keeper, log, name, () => handler(input));
  return kept as Handlers;
}
