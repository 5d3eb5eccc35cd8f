/**
 * The `plugboard` command line: global options, commands, and the exit codes (0 ok, 1 controller error
 * with one line on stderr, 2 usage error).
 */
import { Command, CommanderError, Option } from 'commander';
import { errorSentence, isPlugboardError, type PlugboardError } from '../dli/errors';
import { registerAdminCommands } from './commands-admin';
import { registerControllerCommands } from './commands-controllers';
import { registerOutletCommands } from './commands-outlets';
import { registerScriptCommands } from './commands-scripts';
import { connect, type GlobalOptions, type Target } from './connect';
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

function globalOptions(): Option[] {
  return [
    new Option('--url <url>', 'controller address, http[s]://host[:port] (env PLUGBOARD_URL)'),
    new Option('--controller <name>', 'a saved controller (see: controllers list)'),
    new Option('--user <name>', 'user name (env PLUGBOARD_USER; default admin)'),
    new Option(
      '--password <password>',
      'password (env PLUGBOARD_PASSWORD); every user of the machine can read it in the process list: prefer --password-stdin, the variable, or a saved controller (keychain)',
    ),
    new Option('--password-stdin', 'read the password from the first line of standard input'),
    new Option('--token <token>', 'access token <client_id>.<secret> instead of a password'),
    new Option('--json', 'machine-readable output on stdout'),
    new Option(
      '--accept-fingerprint <sha256>',
      "trust this HTTPS certificate fingerprint (the controller's self-signed certificate)",
    ),
    new Option(
      '--reuse-secret',
      'with --controller: send the saved password even though --user or --accept-fingerprint changed where it goes',
    ),
  ];
}

/** Leaf commands accept the global options after their name too (`outlets --json`); hidden from their help. */
export function leaf(command: Command, except: readonly string[] = []): Command {
  for (const option of globalOptions()) {
    if (!except.includes(option.long ?? '')) command.addOption(option.hideHelp());
  }
  return command.addHelpText(
    'after',
    '\nGlobal options (--url, --controller, --user, --password, --password-stdin, --token, --json,\n--accept-fingerprint, --reuse-secret) go before the command, or after it: see plugboard --help.',
  );
}

export function buildProgram(terminal: Terminal, exit: { code: number }): Command {
  const program = new Command('plugboard')
    .description('Control Digital Loggers power controllers (REST-style API) from the command line.')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => terminal.io.out.write(text),
      writeErr: (text) => terminal.io.err.write(text),
      // One line, like every other error: "plugboard: unknown command 'x' (add --help for usage)".
      outputError: (text, write) =>
        write(`plugboard: ${shortQuotes(text.trim().replace(/^error: /, ''))} (add --help for usage)\n`),
    });
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
  registerScriptCommands(program, run);
  registerAdminCommands(program, run);
  registerControllerCommands(program, run);
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
  if (error.code === 'TLS_UNTRUSTED' && typeof fingerprint === 'string') {
    return `Compare it with the controller's. To trust it, run again with --accept-fingerprint ${fingerprint}${secret}`;
  }
  if (error.code === 'TLS_CHANGED' && typeof fingerprint === 'string') {
    return `If you trust the new certificate, run again with --accept-fingerprint ${fingerprint}${secret}`;
  }
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
    return EXIT_CONTROLLER;
  }
  const message = `Plugboard hit an unexpected problem: ${error instanceof Error ? error.message : String(error)}`;
  if (json) terminal.warn(JSON.stringify({ error: { code: 'INTERNAL', message } }));
  else terminal.warn(`plugboard: ${message} [INTERNAL]`);
  return EXIT_CONTROLLER;
}
