/** Runs the real `plugboard` command line as a child process and collects what it printed. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = resolve(ROOT, 'src-main/cli/main.ts');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not). */
  json<T = unknown>(): T;
}

export interface CliRun {
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

/** Environment without anything from the caller that would change the CLI's behaviour. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['PLUGBOARD_URL', 'PLUGBOARD_USER', 'PLUGBOARD_PASSWORD', 'FORCE_COLOR', 'NO_COLOR'])
    delete env[key];
  return { ...env, ...extra };
}

function collect(command: string, args: string[], options: CliRun): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: options.env ?? cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** `node --import tsx src-main/cli/main.ts …` — what `npx tsx` runs, without npx's start-up cost. */
export function cli(args: string[], options: CliRun = {}): Promise<CliResult> {
  return collect(process.execPath, ['--import', 'tsx', MAIN, ...args], options);
}

/** Exactly as documented: `npm run --silent cli -- …`. */
export function npmCli(args: string[], options: CliRun = {}): Promise<CliResult> {
  return collect('npm', ['run', '--silent', 'cli', '--', ...args], options);
}

/** The warning every use of --password prints (tested on its own in cli-input.test.ts). */
export const PASSWORD_WARNING = 'plugboard: warning: --password is visible to every user';

/** The lines a result printed on stderr, without npm's own configuration noise or the --password warning. */
export function errorLines(result: CliResult): string[] {
  return result.stderr
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('npm warn') && !line.startsWith(PASSWORD_WARNING));
}
