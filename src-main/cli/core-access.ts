/**
 * How a command reaches Plugboard's Core (issue 15: the CLI goes through the Core). Today: a Core in
 * this process over the saved controllers (config folder and keychain), acting as this OS user through
 * the CLI door, disposed when the command ends. A running `plugboard serve` (found in the config folder,
 * or given with --service) takes its place once it exists: commands see only `CoreAccess`.
 *
 * Loaded lazily (`await import('./core-access')`) by the commands that need it, like saved-controllers.ts.
 */
import type { EventSink, Handlers } from '../../src-preload/contract';
import type { Actor } from '../../src-preload/model';
import { osUserName } from '../core/index';
import { openSavedCore } from '../core/saved-core';
import { plugboardConfigDir } from '../core/config-dir';
import type { CommandContext } from './command-context';

export interface CoreAccess {
  /** The contract's calls, recorded as this command's (the CLI door, this OS user). */
  handlers: Handlers;
  /** Who the calls are recorded as. */
  actor: Actor;
  subscribe(sink: EventSink): () => void;
  close(): Promise<void>;
}

export async function openCoreAccess(context: CommandContext): Promise<CoreAccess> {
  const env = context.terminal.io.env;
  const actor: Actor = { door: 'cli', who: osUserName() };
  const core = await openSavedCore({
    shell: 'cli',
    version: '0.0.0',
    configDir: plugboardConfigDir({ env }),
    log: (message) => context.terminal.warn(`plugboard: ${message}`),
  });
  return {
    handlers: core.handlersAs(actor),
    actor,
    subscribe: (sink) => core.subscribe(sink),
    close: () => core.dispose(),
  };
}

/** Run `work` with the Core and always close it. */
export async function withCore(
  context: CommandContext,
  work: (core: CoreAccess) => Promise<void>,
): Promise<void> {
  const core = await openCoreAccess(context);
  try {
    await work(core);
  } finally {
    await core.close();
  }
}
