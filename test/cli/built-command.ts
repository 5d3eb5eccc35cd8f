/**
 * The built `plugboard` command (out/main/plugboard.js, the package's `bin`, built by `npm run test:all`
 * or `npx electron-vite build`) as a child process on the Node the packaged command runs on
 * (test/built-node.ts), and `npm run --silent cli -- …` as the README documents it: what only a real
 * process shows (exit codes, standard input, signals).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { builtNode } from '../built-node';
import { ROOT, cleanEnv, type CliResult, type CliRun } from './run-cli';

export const BUILT_COMMAND = join(ROOT, 'out/main/plugboard.js');

export interface RunningCommand {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** How it ended: its exit code, or the signal that ended it. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: string[], options: CliRun): RunningCommand {
  const child = spawn(command, args, { cwd: ROOT, env: options.env ?? cleanEnv(), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  child.stdin.end(options.stdin ?? '');
  return { child, stdout: () => stdout, stderr: () => stderr, ended };
}

async function collect(running: RunningCommand): Promise<CliResult> {
  const { code } = await running.ended;
  const stdout = running.stdout();
  return { code, stdout, stderr: running.stderr(), json: <T>() => JSON.parse(stdout) as T };
}

/** Start `node out/main/plugboard.js …`; standard input is `stdin`, then closed. */
export function startBuilt(args: string[], options: CliRun = {}): RunningCommand {
  if (!existsSync(BUILT_COMMAND))
    throw new Error(`${BUILT_COMMAND} is missing: build first (npx electron-vite build).`);
  return start(builtNode(), [BUILT_COMMAND, ...args], options);
}

/** `node out/main/plugboard.js …` to its end. */
export function builtCli(args: string[], options: CliRun = {}): Promise<CliResult> {
  return collect(startBuilt(args, options));
}

/** Exactly as documented: `npm run --silent cli -- …`. */
export function npmCli(args: string[], options: CliRun = {}): Promise<CliResult> {
  return collect(start('npm', ['run', '--silent', 'cli', '--', ...args], options));
}
