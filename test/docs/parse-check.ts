/**
 * Whether a command line parses, checked by the programs' own definitions and nothing else: the CLI's
 * commander program (buildProgram, stopped before any action runs), `plugboard serve`'s flag parser
 * (parseServeArgs) and the emulator's (parseCli). Nothing is sent and no Core is started.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CommanderError } from 'commander';
import { buildProgram } from '../../src-main/cli/program';
import { Terminal, type CliIo } from '../../src-main/cli/io';
import { parseCli as parseEmulatorArgs } from '../../src-main/emulator/cli';
import { parseServeArgs } from '../../src-main/serve/options';
import type { Invocation } from './shell-lines';

/** Thrown from the program's preAction hook: the line parsed, and its action is not run. */
class Parsed extends Error {}

function silentIo(): { io: CliIo; said: () => string } {
  let said = '';
  const sink = (): PassThrough => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (said += chunk.toString()));
    return stream;
  };
  return { io: { out: sink(), err: sink(), in: new PassThrough(), env: {} }, said: () => said };
}

/**
 * Why `plugboard <args>` does not parse (commander's own words), or null when it does: every command
 * exists, every option exists for the command it follows, required arguments and options are there and
 * no argument is left over. Help asked for (`--help`) parses.
 */
export async function cliProblem(args: readonly string[]): Promise<string | null> {
  const { io, said } = silentIo();
  const program = buildProgram(new Terminal(io), { code: 0 });
  program.hook('preAction', () => {
    throw new Parsed();
  });
  try {
    await program.parseAsync([...args], { from: 'user' });
    return 'the command ran to its end without reaching an action';
  } catch (error) {
    if (error instanceof Parsed) return null;
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return null;
      // A command with subcommands and no action, given none: commander shows its help as an error.
      if (error.code === 'commander.help') return 'the line names no command to run: it only shows the help';
      return (said().trim() || error.message).replace(/\s+/g, ' ');
    }
    throw error;
  }
}

let tokenFile: string | null = null;

/** A token file as `--token-file` wants it (private, a valid line): the doc's path stands for one. */
function aTokenFile(): string {
  if (tokenFile) return tokenFile;
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-doc-tokens-'));
  tokenFile = join(dir, 'tokens');
  writeFileSync(tokenFile, 'docs[operator]:a-secret-of-twenty-four-c\n', { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  return tokenFile;
}

/** What the secret files the docs name hold (private, valid): the doc's paths stand for such files. */
const SECRET_FILES: Record<string, string> = {
  '--mqtt-ca': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  '--mqtt-credentials-file': 'plugboard:a-broker-password\n',
  '--oidc-client-secret-file': 'a-client-secret-of-the-provider\n',
};

function aSecretFile(flag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-doc-secret-'));
  const file = join(dir, flag);
  const text = SECRET_FILES[flag]!;
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** Why `plugboard serve <args>` does not parse (the sentence it would print), or null when it does. */
export async function serveProblem(args: readonly string[]): Promise<string | null> {
  const words = args.map((word, i) =>
    args[i - 1] === '--token-file'
      ? aTokenFile()
      : (args[i - 1] ?? '') in SECRET_FILES
        ? aSecretFile(args[i - 1]!)
        : word,
  );
  const env = { PLUGBOARD_CONFIG_DIR: join(tmpdir(), 'plugboard-doc-config') };
  try {
    await parseServeArgs(
      words.map((word) => (word.startsWith('--token-file=') ? `--token-file=${aTokenFile()}` : word)),
      env,
    );
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Why `npm run emulator -- <args>` does not parse, or null when it does. */
export function emulatorProblem(args: readonly string[]): string | null {
  const parsed = parseEmulatorArgs([...args]);
  if (parsed.ok || parsed.exitCode === 0) return null;
  return parsed.output.trim();
}

/** Why an invocation a page shows does not parse, or null when it does. */
export async function invocationProblem(invocation: Invocation): Promise<string | null> {
  if (invocation.program === 'emulator') return emulatorProblem(invocation.args);
  if (invocation.args[0] === 'serve') return serveProblem(invocation.args.slice(1));
  return cliProblem(invocation.args);
}
