/**
 * What every command's action gets, and how it reaches a controller. Commands import this, never
 * program.ts (which imports them).
 */
import type { CallInput, CallName, CallResult } from '../../src-preload/contract';
import type { GlobalOptions } from './connect';
import type { Terminal } from './io';

/** What a one-off login needs of the Core once it is open (core-access.ts's CoreAccess has it). */
export interface CoreCaller {
  /** Whether the Core runs in this process (false: a running service). */
  inProcess: boolean;
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>>;
}

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
  /** Run once the Core is open, before the command's calls: a one-off login's meaning there (saved-route.ts). */
  beforeCore?: (core: CoreCaller) => Promise<void>;
}

export type Runner = (
  work: (context: CommandContext, ...args: unknown[]) => Promise<void>,
) => (...args: unknown[]) => Promise<void>;

/**
 * Options that mean "log in with these, not the saved secret": with them, a command looks its
 * controller up among the saved ones first (`routeToCore`, saved-route.ts).
 */
const ONE_OFF_LOGIN = ['user', 'password', 'passwordStdin', 'token', 'acceptFingerprint', 'reuseSecret'];

/** Whether the command goes to the machine's Core (saved controllers, groups) by its options alone. */
export function throughCore(context: CommandContext): boolean {
  const o = context.options;
  if (o.url !== undefined) return false;
  if (o.controller !== undefined) return !ONE_OFF_LOGIN.some((key) => o[key] !== undefined);
  if (typeof o.service === 'string') return true;
  return !context.terminal.io.env.PLUGBOARD_URL;
}

/** A command on one controller: through the Core when --controller names a saved one (and no one-off login). */
export function savedThroughCore(context: CommandContext): boolean {
  return context.options.controller !== undefined && throughCore(context);
}
