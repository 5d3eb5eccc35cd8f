/**
 * The `plugboard` command line: global options, commands, and the exit codes (exit-codes.ts: one table
 * for every command; an error prints one line on stderr).
 */
import { Command, CommanderError } from 'commander';
import { appVersion } from '../shared/app-root';
import { errorSentence, isPlugboardError, type PlugboardError } from '../shared/errors';
import { registerActivityCommands } from './commands-activity';
import { registerAdminCommands } from './commands-admin';
import { registerCredentialCommands } from './commands-credentials';
import { registerAutopingCommands } from './commands-autoping';
import { registerControllerCommands } from './commands-controllers';
import { registerImportCommand } from './commands-import';
import { registerMeterCommands } from './commands-meters';
import { registerOutletCommands } from './commands-outlets';
import { registerScriptCommands } from './commands-scripts';
import { registerSettingsCommands } from './commands-settings';
import { registerReservationCommands } from './commands-reservations';
import { registerAccountCommands } from './commands-accounts';
import { registerSignInCommands } from './commands-sign-in';
import { registerSequenceCommands } from './commands-sequences';
import { registerInventoryCommands } from './commands-inventory';
import type { CommandContext, Runner } from './command-context';
import type { GlobalOptions } from './connect';
import { globalOptions } from './global-options';
import { CONFIRM_WITH_YES, exitCodeFor, exitCodeHelp } from './exit-codes';
import {
  EXIT_CONTROLLER,
  EXIT_OK,
  EXIT_USAGE,
  ExitWith,
  Terminal,
  UsageError,
  excerpt,
  type CliIo,
} from './io';

export function buildProgram(terminal: Terminal, exit: { code: number }): Command {
  const program = new Command('plugboard')
    .description('Control Digital Loggers power controllers (REST-style API) from the command line.')
    .version(appVersion(), '-V, --version', "print Plugboard's version")
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => terminal.io.out.write(text),
      writeErr: (text) => terminal.io.err.write(text),
      // One line, like every other error: "plugboard: unknown command 'x' (add --help for usage)".
      outputError: (text, write) =>
        write(`plugboard: ${shortQuotes(text.trim().replace(/^error: /, ''))} (add --help for usage)\n`),
    })
    .addHelpText('after', exitCodeHelp());
  for (const option of globalOptions()) program.addOption(option);

  const run: Runner =
    (work) =>
    async (...args) => {
      const command = args.at(-1) as Command;
      const options = command.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
      const context: CommandContext = {
        terminal,
        options,
        local: command.opts(),
        globals: program.opts<GlobalOptions>(),
        json: options.json === true,
      };
      try {
        await work(context, ...args.slice(0, -2));
        exit.code = EXIT_OK;
      } catch (error) {
        exit.code = report(error, terminal, context.json, options.controller !== undefined);
      }
    };

  registerOutletCommands(program, run);
  registerMeterCommands(program, run);
  registerScriptCommands(program, run);
  registerSettingsCommands(program, run);
  registerAdminCommands(program, run);
  registerAutopingCommands(program, run);
  registerControllerCommands(program, run);
  registerImportCommand(program, run);
  registerReservationCommands(program, run);
  registerActivityCommands(program, run);
  registerSequenceCommands(program, run);
  registerInventoryCommands(program, run);
  registerCredentialCommands(program, run);
  registerAccountCommands(program, run);
  registerSignInCommands(program, run);
  return program;
}

/** Run the command line; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const terminal = new Terminal(io);
  terminal.typed(argv);
  const exit = { code: EXIT_OK };
  const program = buildProgram(terminal, exit);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      const clean = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
      return clean ? EXIT_OK : EXIT_USAGE;
    }
    return report(error, terminal, false);
  }
  return exit.code;
}

/** Commander quotes what was typed ('…'): at most a short excerpt of it. */
function shortQuotes(text: string): string {
  return text.replace(/'([^'\n]{41,})'/g, (_, typed: string) => `'${excerpt(typed)}'`);
}

/** What to do, in the CLI's words where they differ from the window's (a flag instead of a button). */
function cliAction(error: PlugboardError, saved: boolean): string | undefined {
  const fingerprint = error.detail?.fingerprint;
  // A saved controller's password goes to a new certificate only when typed again or confirmed.
  const secret = saved ? ' and --password-stdin (or --reuse-secret to send the saved password)' : '';
  // The Core's refusal to send a saved secret to a place it was not saved for (registry-envelope.ts).
  if (saved && typeof error.detail?.confirmSecret === 'boolean') {
    return error.detail.confirmSecret
      ? 'If the new place is right, run again with --reuse-secret to send the saved password there, or give it with --password-stdin'
      : 'Give the password again with --password-stdin to use Basic login';
  }
  // A saved controller whose secret is kept nowhere this command can read (no keychain).
  if (error.detail?.passwordNeeded === true) {
    const user = error.detail.user;
    return typeof user === 'string' && user !== ''
      ? `Add --password-stdin to give it for this command, or give it once to a running plugboard serve: plugboard password ${user} --password-stdin`
      : 'Add --token TOKEN to give it for this command';
  }
  if (error.code === 'TLS_UNTRUSTED' && typeof fingerprint === 'string') {
    return `Compare it with the controller's. To trust it, run again with --accept-fingerprint ${fingerprint}${secret}`;
  }
  if (error.code === 'TLS_CHANGED' && typeof fingerprint === 'string') {
    return `If you trust the new certificate, run again with --accept-fingerprint ${fingerprint}${secret}`;
  }
  if (error.code === 'CRITICAL_UNCONFIRMED') return CONFIRM_WITH_YES;
  return error.action;
}

/** One line on stderr (JSON with --json); the exit code for it. `saved`: the command used --controller. */
export function report(error: unknown, terminal: Terminal, json: boolean, saved = false): number {
  if (error instanceof ExitWith) return error.code;
  if (error instanceof UsageError) {
    terminal.warn(`plugboard: ${error.message} (add --help for usage)`);
    return EXIT_USAGE;
  }
  if (isPlugboardError(error)) {
    const action = cliAction(error, saved);
    const contract = { ...error.toContractError(), ...(action ? { action } : {}) };
    if (json) terminal.warn(JSON.stringify({ error: contract }));
    else terminal.warn(`plugboard: ${errorSentence(contract)} [${error.code}]`);
    return exitCodeFor(error.code);
  }
  const message = `Plugboard hit an unexpected problem: ${error instanceof Error ? error.message : String(error)}`;
  if (json) terminal.warn(JSON.stringify({ error: { code: 'INTERNAL', message } }));
  else terminal.warn(`plugboard: ${message} [INTERNAL]`);
  return EXIT_CONTROLLER;
}
