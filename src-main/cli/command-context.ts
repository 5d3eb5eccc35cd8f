/**
 * What every command's action gets, and how it reaches a controller. Commands import this, never
 * program.ts (which imports them).
 */
import { connect, type GlobalOptions, type Target } from './connect';
import type { Terminal } from './io';

/** What a command's action gets. */
export interface CommandContext {
  terminal: Terminal;
  /** Global options merged with the command's own (the command's win). */
  options: GlobalOptions & Record<string, unknown>;
  /** The command's own options only (e.g. `user add --password-stdin`, the new user's password). */
  local: Record<string, unknown>;
  /** The options given before the command name. */
  globals: GlobalOptions;
  json: boolean;
}

export type Runner = (
  work: (context: CommandContext, ...args: unknown[]) => Promise<void>,
) => (...args: unknown[]) => Promise<void>;

/** Run `work` against the chosen controller and always close the connection. */
export async function withController(
  context: CommandContext,
  work: (target: Target) => Promise<void>,
): Promise<void> {
  const target = await connect(context.options, context.terminal);
  try {
    await work(target);
  } finally {
    await target.client.close();
  }
}
