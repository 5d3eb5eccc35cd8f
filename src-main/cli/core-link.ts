/**
 * What a command holds of a Core, whichever it is: a running service, the machine's Core over the saved
 * controllers, or a one-off Core for a unit given by address (ephemeral.ts). Every call is recorded as
 * this OS user through the CLI door and checked against the contract before it is made.
 */
import type { CallInput, CallName, CallResult, EventSink, Handlers } from '../../src-preload/contract';
import type { Actor } from '../../src-preload/model';
import { dispatch, osUserName } from '../core/index';
import { PlugboardError } from '../shared/errors';
import type { CommandContext } from './command-context';

/** A Core a command can use: in this process, or a running `plugboard serve` (src-main/link/). */
export interface CoreLink {
  handlersAs(actor: Actor): Handlers;
  subscribe(sink: EventSink): () => void;
  close(): Promise<void>;
}

export interface CoreAccess {
  /** The contract's calls, recorded as this command's (the CLI door, this OS user). */
  handlers: Handlers;
  /** Who the calls are recorded as. */
  actor: Actor;
  /** Whether the Core runs in this process (false: a running service). */
  inProcess: boolean;
  /** A call with its input checked against the contract; an error answer is thrown as PlugboardError. */
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>>;
  subscribe(sink: EventSink): () => void;
  close(): Promise<void>;
}

export function accessOver(link: CoreLink, inProcess: boolean, context: CommandContext): CoreAccess {
  const actor: Actor = { door: 'cli', who: osUserName() };
  const handlers = link.handlersAs(actor);
  return {
    handlers,
    actor,
    inProcess,
    async call(name, input) {
      const result = await dispatch(handlers, name, input, (message, error) =>
        context.terminal.warn(`plugboard: ${message}${error instanceof Error ? `: ${error.message}` : ''}`),
      );
      if (result.ok) return result.value as CallResult<typeof name>;
      const { code, message, action, detail } = result.error;
      throw new PlugboardError(code, message, detail, action ? { action } : {});
    },
    subscribe: (sink) => link.subscribe(sink),
    close: () => link.close(),
  };
}
